module pipeline

go 1.23
