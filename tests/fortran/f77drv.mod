!mod$ v1 sum:c1b4b9402e48cb99
module f77drv
contains
subroutine dummy()
end
end
