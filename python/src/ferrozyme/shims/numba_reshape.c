/* numba's helper that reshapes an array without copying (numba/_helperlib.c declares it;
 * numba calls it for reshape, ravel and the 0-d arrays np.where and np.linalg.norm make),
 * defined here so that ferrozyme.numba gets its IR: it moves integers only (shapes and
 * strides), so the pass sees that no derivative flows through it and can follow the
 * pointers its callers store next to those integers.
 *
 * Given an array of `nd` dimensions `dims` with byte strides `strides`, fill `newstrides`
 * for the shape `newdims` (`newnd` dimensions, the same number of elements) so that the new
 * array views the same memory in C order (or Fortran order when `is_f_order`), and return
 * 1; return 0 when no such strides exist (the data would have to be copied).
 *
 * The axes of both shapes are grouped into runs whose products agree; each run of the old
 * shape must be contiguous in the chosen order, and the new run's strides follow from the
 * stride of its fastest-varying old axis. Axes of length 1 are skipped in the old shape and
 * get the stride of their neighbour in the new one. */
typedef long fz_intp;

#define FZ_MAX_DIMS 64

int numba_attempt_nocopy_reshape(fz_intp nd, const fz_intp *dims, const fz_intp *strides, fz_intp newnd,
                                 const fz_intp *newdims, fz_intp *newstrides, fz_intp itemsize, int is_f_order) {
    fz_intp od[FZ_MAX_DIMS], os[FZ_MAX_DIMS];
    fz_intp n_old = 0, total_old = 1, total_new = 1;
    if (nd > FZ_MAX_DIMS)
        return 0;
    for (fz_intp k = 0; k < nd; k++) {
        total_old *= dims[k];
        if (dims[k] != 1) {
            od[n_old] = dims[k];
            os[n_old] = strides[k];
            n_old++;
        }
    }
    for (fz_intp k = 0; k < newnd; k++)
        total_new *= newdims[k];
    if (total_old != total_new)
        return 0;
    if (total_old == 0) {
        /* An empty array: any strides view it; give it contiguous ones. */
        fz_intp s = itemsize;
        for (fz_intp k = 0; k < newnd; k++) {
            fz_intp axis = is_f_order ? k : newnd - 1 - k;
            newstrides[axis] = s;
            s *= newdims[axis] > 0 ? newdims[axis] : 1;
        }
        return 1;
    }
    fz_intp oi = 0, ni = 0;
    while (ni < newnd && oi < n_old) {
        /* The smallest runs [oi, oj) and [ni, nj) with equal products. */
        fz_intp oj = oi + 1, nj = ni + 1;
        fz_intp po = od[oi], pn = newdims[ni];
        while (po != pn) {
            if (pn < po) {
                if (nj >= newnd)
                    return 0;
                pn *= newdims[nj++];
            } else {
                if (oj >= n_old)
                    return 0;
                po *= od[oj++];
            }
        }
        /* The old run must be one contiguous block in the chosen order. */
        for (fz_intp k = oi; k + 1 < oj; k++) {
            if (is_f_order ? os[k + 1] != od[k] * os[k] : os[k] != od[k + 1] * os[k + 1])
                return 0;
        }
        if (is_f_order) {
            newstrides[ni] = os[oi];
            for (fz_intp k = ni + 1; k < nj; k++)
                newstrides[k] = newstrides[k - 1] * newdims[k - 1];
        } else {
            newstrides[nj - 1] = os[oj - 1];
            for (fz_intp k = nj - 1; k > ni; k--)
                newstrides[k - 1] = newstrides[k] * newdims[k];
        }
        ni = nj;
        oi = oj;
    }
    /* Trailing axes of length 1. */
    fz_intp last = itemsize;
    if (ni >= 1) {
        last = newstrides[ni - 1];
        if (is_f_order)
            last *= newdims[ni - 1];
    }
    for (fz_intp k = ni; k < newnd; k++)
        newstrides[k] = last;
    return 1;
}
