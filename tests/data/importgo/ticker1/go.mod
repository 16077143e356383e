module ticker1

go 1.23
