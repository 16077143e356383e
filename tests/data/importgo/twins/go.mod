module twins

go 1.23
