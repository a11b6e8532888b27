! OPT: O0 O2
! A Fortran module as finite-volume codes write one: a derived type `mesh` with
! allocatable node coordinates, cell connectivity (integers) and cell weights, built by a
! module procedure outside the differentiated call; the loss, a module function, allocates
! its own work arrays with bounds from the mesh (`allocate(flux(m%ncell))`), runs
! `do concurrent` over the cells with an `associate` of the cell's two nodes, calls a
! `pure elemental` smooth-absolute function on a whole array, uses NORM2, MINVAL and a
! masked SUM, and frees its work arrays. Derivatives with respect to the coordinates (a
! component of a derived-type argument, enzyme_dup with a shadow mesh) and a vector of
! nodal values; checked against central finite differences and forward mode against
! reverse mode (the dot-product identity).
module m24mesh
  implicit none
  type :: mesh
    integer :: nnode, ncell
    real(8), allocatable :: x(:)
    integer, allocatable :: cell(:, :)
    real(8), allocatable :: w(:)
  end type mesh
contains
  subroutine build(m, n)
    type(mesh), intent(out) :: m
    integer, intent(in) :: n
    integer :: c
    m%nnode = n
    m%ncell = n - 1
    allocate (m%x(n), m%cell(2, n - 1), m%w(n - 1))
    do c = 1, n - 1
      m%cell(:, c) = [c, c + 1]
      m%w(c) = 1 + 0.1d0 * c
    end do
  end subroutine build

  pure elemental real(8) function sabs(t)
    real(8), intent(in) :: t
    sabs = sqrt(t * t + 1d-2)
  end function sabs

  subroutine loss(m, u, f)
    type(mesh), intent(in) :: m
    real(8), intent(in) :: u(m%nnode)
    real(8), intent(out) :: f
    real(8), allocatable :: flux(:), h(:)
    integer :: c
    allocate (flux(m%ncell), h(m%ncell))
    do concurrent (c = 1:m%ncell)
      associate (a => m%cell(1, c), b => m%cell(2, c))
        h(c) = m%x(b) - m%x(a)
        flux(c) = m%w(c) * (u(b) - u(a)) / h(c)
      end associate
    end do
    f = sum(sabs(flux) * h) + 0.5d0 * norm2(u) + minval(h) &
        + sum(flux**2, mask=flux > 0)
    deallocate (flux, h)
  end subroutine loss
end module m24mesh

program p24mesh
  use ferrozyme
  use fz_check
  use m24mesh
  implicit none
  integer, parameter :: n = 9
  type(mesh) :: m, dm, tm
  real(8) :: u(n), du(n), tu(n), f, df, tf, t, h, fp, fm, fdx(n), fdu(n), vx(n)
  integer :: seed, i
  call build(m, n)
  call build(dm, n)
  call build(tm, n)
  seed = 24
  call fill(m%x, 0d0, 1d0, seed)
  do i = 2, n
    m%x(i) = m%x(i - 1) + 0.5d0 + m%x(i)
  end do
  call fill(u, -1d0, 1d0, seed)
  dm%x = 0; dm%w = 0; du = 0; df = 1
  call __enzyme_autodiff(loss, enzyme_dup, m, dm, enzyme_dup, u, du, enzyme_dup, f, df)
  do i = 1, n
    t = m%x(i); h = fd_step(t)
    m%x(i) = t + h; call loss(m, u, fp)
    m%x(i) = t - h; call loss(m, u, fm)
    m%x(i) = t; fdx(i) = (fp - fm) / (2 * h)
    t = u(i); h = fd_step(t)
    u(i) = t + h; call loss(m, u, fp)
    u(i) = t - h; call loss(m, u, fm)
    u(i) = t; fdu(i) = (fp - fm) / (2 * h)
  end do
  call check_arr('d f / d x vs fd', dm%x, fdx, 1d-6)
  call check_arr('d f / d u vs fd', du, fdu, 1d-6)
  call fill(vx, -1d0, 1d0, seed)
  call fill(tu, -1d0, 1d0, seed)
  tm%x = vx; tm%w = 0; tf = 0
  call __enzyme_fwddiff_sub(loss, enzyme_dup, m, tm, enzyme_dup, u, tu, enzyme_dup, f, tf)
  call check('forward . v = reverse . v', tf, dot_product(dm%x, vx) + dot_product(du, tu), 1d-10)
  call finish()
end program p24mesh
