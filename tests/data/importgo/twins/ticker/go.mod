module ticker

go 1.23
