module pool

go 1.23
