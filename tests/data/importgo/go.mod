module importgo

go 1.23
