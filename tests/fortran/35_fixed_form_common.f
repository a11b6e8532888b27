! OPT: O0 O2
! An F77-style program in fixed form: IMPLICIT REAL*8 (A-H,O-Z), parameters and a work
! array in COMMON blocks (/PARAMS/ with the differentiated rate, /WORK/ scratch), DO
! loops ending on labelled CONTINUE, an arithmetic GOTO-style early exit, DIMENSION
! statements, a FUNCTION with an implicit type reading the common block, the state
! integrated in the common block's work array. The loss of a logistic-growth model by
! explicit Euler is differentiated with respect to the initial populations (the rate
! is read from /PARAMS/); checked against central finite differences, forward mode
! against reverse mode. (A fixed-form main: the harness builds `.f` like `.f90`.)
C
      SUBROUTINE EULER(Y0, N, NSTEP, OBJ)
      IMPLICIT REAL*8 (A-H,O-Z)
      DIMENSION Y0(N)
      COMMON /PARAMS/ RATE, CAP
      COMMON /WORK/ W(50)
      DO 10 I = 1, N
        W(I) = Y0(I)
   10 CONTINUE
      DT = 0.1D0
      DO 30 K = 1, NSTEP
        DO 20 I = 1, N
          W(I) = W(I) + DT * GROW(W(I), I)
   20   CONTINUE
        IF (W(1) .GT. 1.0D3) GOTO 40
   30 CONTINUE
   40 OBJ = 0.0D0
      DO 50 I = 1, N
        OBJ = OBJ + (W(I) - 0.5D0*CAP)**2
   50 CONTINUE
      RETURN
      END
C
      FUNCTION GROW(X, I)
      IMPLICIT REAL*8 (A-H,O-Z)
      COMMON /PARAMS/ RATE, CAP
      GROW = RATE * X * (1.0D0 - X/CAP) - 0.01D0 * DBLE(I) * X
      RETURN
      END
C
      PROGRAM P35
      USE FERROZYME
      USE FZ_CHECK
      IMPLICIT REAL*8 (A-H,O-Z)
      PARAMETER (N = 4, NSTEP = 20)
      DIMENSION Y(N), DY(N), TY(N), FD(N)
      COMMON /PARAMS/ RATE, CAP
      COMMON /WORK/ W(50)
      EXTERNAL EULER
      RATE = 0.8D0
      CAP = 2.0D0
      DO 5 I = 1, N
        Y(I) = 0.2D0 + 0.15D0 * I
        DY(I) = 0.0D0
    5 CONTINUE
      OBJ = 0.0D0
      DOBJ = 1.0D0
      CALL __ENZYME_AUTODIFF(EULER, ENZYME_DUP, Y, DY, ENZYME_CONST, N,
     &     ENZYME_CONST, NSTEP, ENZYME_DUP, OBJ, DOBJ)
      DO 60 I = 1, N
        T = Y(I)
        H = FD_STEP(T)
        Y(I) = T + H
        CALL EULER(Y, N, NSTEP, FP)
        Y(I) = T - H
        CALL EULER(Y, N, NSTEP, FM)
        Y(I) = T
        FD(I) = (FP - FM) / (2.0D0 * H)
   60 CONTINUE
      CALL CHECK_ARR('dOBJ/dY0 vs fd', DY, FD, 1.0D-6)
      DO 70 I = 1, N
        TY(I) = 0.1D0 * I - 0.2D0
   70 CONTINUE
      TOBJ = 0.0D0
      CALL __ENZYME_FWDDIFF_SUB(EULER, ENZYME_DUP, Y, TY, ENZYME_CONST,
     &     N, ENZYME_CONST, NSTEP, ENZYME_DUP, OBJ, TOBJ)
      CALL CHECK('forward . v = reverse . v', TOBJ, DOT_PRODUCT(DY, TY),
     &     1.0D-10)
      CALL FINISH()
      END
