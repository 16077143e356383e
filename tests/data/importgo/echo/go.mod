module echo

go 1.23
