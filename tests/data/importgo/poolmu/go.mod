module poolmu

go 1.23
