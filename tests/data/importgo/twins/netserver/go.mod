module netserver

go 1.23
