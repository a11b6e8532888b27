! OPT: O0 O2
! Legacy F77 numerics in fixed form as old solvers are written: an arithmetic IF
! (IF (D) 10, 20, 30) choosing a branch of a piecewise model by the sign of a
! difference of inputs, a computed GO TO dispatching on an integer option, a DATA-
! initialised coefficient table with SAVE, DOUBLE PRECISION and DIMENSION statements,
! a subroutine with a second ENTRY point (the loss enters through the ENTRY), DO loops
! ending on labelled CONTINUE. Reverse mode against central differences (the branches
! stay the same under the small perturbation); forward mode by the dot-product identity.
C
      SUBROUTINE MODEL(X, W, N, IOPT, F)
      DOUBLE PRECISION X(N), W(N), F
      DOUBLE PRECISION C(3), D, T, ACC
      INTEGER N, IOPT, I
      SAVE C
      DATA C /0.5D0, 1.25D0, -0.3D0/
      F = 0.0D0
      GO TO 5
      ENTRY LOSSE(X, W, N, IOPT, F)
      F = 1.0D0
    5 ACC = 0.0D0
      DO 50 I = 1, N
        D = X(I) - 0.2D0 * W(I)
        IF (D) 10, 20, 30
   10   T = C(1) * D * D
        GO TO 40
   20   T = 0.0D0
        GO TO 40
   30   T = C(2) * SIN(D) * W(I)
   40   ACC = ACC + T
   50 CONTINUE
      GO TO (60, 70, 80), IOPT
   60 F = F + ACC
      RETURN
   70 F = F + ACC * ACC + C(3) * X(1)
      RETURN
   80 F = F + EXP(0.1D0 * ACC)
      RETURN
      END
C
      SUBROUTINE LOSS(X, W, F)
      DOUBLE PRECISION X(8), W(8), F, G
      CALL LOSSE(X, W, 8, 2, F)
      CALL MODEL(X, W, 8, 3, G)
      F = F + G
      RETURN
      END
C
      PROGRAM P105
      USE FERROZYME
      USE FZ_CHECK
      IMPLICIT NONE
      EXTERNAL LOSS
      DOUBLE PRECISION X(8), W(8), DX(8), DW(8), FX(8), FW(8), F, DF
      DOUBLE PRECISION VX(8), VW(8), TF, F2
      INTEGER SEED
      SEED = 105
      CALL FILL(X, -1D0, 1D0, SEED)
      CALL FILL(W, 0.3D0, 1D0, SEED)
      DX = 0
      DW = 0
      DF = 1
      CALL __ENZYME_AUTODIFF(LOSS, ENZYME_DUP, X, DX, ENZYME_DUP, W, DW,
     &     ENZYME_DUP, F, DF)
      CALL FD_GRAD2(LOSS, X, W, 8, FX, FW)
      CALL CHECK_ARR('d f / d x vs fd', DX, FX, 1D-6)
      CALL CHECK_ARR('d f / d w vs fd', DW, FW, 1D-6)
      CALL FILL(VX, -1D0, 1D0, SEED)
      CALL FILL(VW, -1D0, 1D0, SEED)
      TF = 0
      CALL __ENZYME_FWDDIFF_SUB(LOSS, ENZYME_DUP, X, VX, ENZYME_DUP, W,
     &     VW, ENZYME_DUP, F2, TF)
      CALL CHECK('forward . v = reverse . v', TF,
     &     DOT_PRODUCT(DX, VX) + DOT_PRODUCT(DW, VW), 1D-10)
      CALL FINISH()
      END
