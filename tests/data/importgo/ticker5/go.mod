module ticker5

go 1.23
