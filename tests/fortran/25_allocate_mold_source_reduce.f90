! OPT: O0 O2
! A relaxation as Fortran 2008/2018 code writes it: the work arrays take their shape from
! the data (`allocate(u, source=u0)` of a 2-D dummy, `allocate(w, mold=u)`,
! `allocate(g(0:ny+1), source=0.0_dp)` with explicit bounds and a scalar source), `do
! concurrent` sweeps, and an objective accumulated by a Fortran 2023 `do concurrent ...
! reduce(+:tot) reduce(max:peak)`. flang calls its runtime for the MOLD=/SOURCE=
! allocations (_FortranAAllocatableApplyMold, SetBounds, Allocate, AllocateSource): they
! were a missing-derivative error before hpc17 (tests/fortran/22 said so); they now have
! differentiable implementations (runtime/fortran.c). Reverse mode w.r.t. the initial
! field and the coupling is checked against central finite differences, forward mode
! against reverse mode (the dot-product identity). (An integer array allocated with
! SOURCE= from a constant argument is still a clear error: cannot-deduce-type.)
module m25
  implicit none
  integer, parameter :: dp = kind(1d0)
contains
  subroutine relax(nx, ny, u0, ids, k, nsteps, obj)
    integer, intent(in) :: nx, ny, nsteps
    real(dp), intent(in) :: u0(nx, ny), k
    integer, intent(in) :: ids(ny)
    real(dp), intent(out) :: obj
    real(dp), allocatable :: u(:, :), w(:, :), g(:)
    integer :: s, i, j
    real(dp) :: tot, peak
    allocate (u, source=u0)
    allocate (w, mold=u)
    allocate (g(0:ny + 1), source=0.0_dp)
    do s = 1, nsteps
      do concurrent(i=1:nx, j=1:ny)
        w(i, j) = u(i, j) + k * (u(max(i - 1, 1), j) + u(min(i + 1, nx), j) - 2 * u(i, j)) &
                  + 0.05_dp * sin(u(i, j))
      end do
      u = w
    end do
    do j = 1, ny
      g(j) = sum(u(:, j)**2)
    end do
    tot = 0
    peak = -huge(1.0_dp)
    do concurrent(j=1:ny) reduce(+:tot) reduce(max:peak)
      tot = tot + g(ny + 1 - ids(j)) * (1 + 0.1_dp * j) + 0.01_dp * g(j - 1) * g(j + 1)
      peak = max(peak, u(1, j) * u(nx, j))
    end do
    obj = tot + peak
  end subroutine relax
end module m25

program p25
  use ferrozyme
  use fz_check
  use m25
  implicit none
  integer, parameter :: nx = 4, ny = 5, nsteps = 3
  real(dp) :: u0(nx, ny), du0(nx, ny), k, dk, obj, dobj, fu(nx, ny), fk
  real(dp) :: t, h, op, om, vu(nx, ny), vk, tobj, o2
  integer :: ids(ny), seed, i, j
  seed = 25
  do j = 1, ny
    call fill(u0(:, j), -1d0, 1d0, seed)
    ids(j) = j
  end do
  k = 0.2_dp
  du0 = 0; dk = 0; dobj = 1
  call __enzyme_autodiff(relax, enzyme_const, nx, enzyme_const, ny, enzyme_dup, u0, du0, enzyme_const, ids, enzyme_dup, k, dk, &
                         enzyme_const, nsteps, enzyme_dup, obj, dobj)
  do j = 1, ny
    do i = 1, nx
      t = u0(i, j); h = fd_step(t)
      u0(i, j) = t + h; call relax(nx, ny, u0, ids, k, nsteps, op)
      u0(i, j) = t - h; call relax(nx, ny, u0, ids, k, nsteps, om)
      u0(i, j) = t; fu(i, j) = (op - om) / (2 * h)
    end do
  end do
  t = k; h = fd_step(t)
  k = t + h; call relax(nx, ny, u0, ids, k, nsteps, op)
  k = t - h; call relax(nx, ny, u0, ids, k, nsteps, om)
  k = t; fk = (op - om) / (2 * h)
  call relax(nx, ny, u0, ids, k, nsteps, o2)
  call check('objective', obj, o2, 1d-14)
  call check_arr('d obj / d u0 vs fd', reshape(du0, [nx * ny]), reshape(fu, [nx * ny]), 1d-6)
  call check('d obj / d k vs fd', dk, fk, 1d-6)
  do j = 1, ny
    call fill(vu(:, j), -1d0, 1d0, seed)
  end do
  vk = 0.7_dp
  tobj = 0
  call __enzyme_fwddiff_sub(relax, enzyme_const, nx, enzyme_const, ny, enzyme_dup, u0, vu, enzyme_const, ids, enzyme_dup, k, vk, &
                            enzyme_const, nsteps, enzyme_dup, o2, tobj)
  call check('forward . v = reverse . v', tobj, sum(du0 * vu) + dk * vk, 1d-10)
  call finish()
end program p25
