#!/usr/bin/env bash
# The Python package's test suite: installs ./python (pip, non-editable) into the cached
# framework environment of ensure-python-env.sh and runs pytest on python/tests.
# Extra arguments go to pytest (e.g. -k jax). Needs target/release/ferrozyme (built if
# missing). Compiled libraries are cached in ~/.cache/ferrozyme (FERROZYME_CACHE_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=$(bash scripts/ensure-python-env.sh | tail -n 1)
[ -x target/release/ferrozyme ] || cargo build --release -p ferrozyme-cli
"$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-build-isolation --no-deps \
  --force-reinstall ./python >&2
rm -rf python/build
cd python
export TF_CPP_MIN_LOG_LEVEL=${TF_CPP_MIN_LOG_LEVEL:-2}
PYTEST=("$VENV/bin/python" -m pytest -q -p no:cacheprovider)
# With arguments (a selection), or FERROZYME_PY_JOBS=1: one pytest process.
if [ $# -gt 0 ] || [ "${FERROZYME_PY_JOBS:-2}" = 1 ]; then
  exec "${PYTEST[@]}" tests "$@"
fi
# The whole suite: two pytest processes over two halves of the files, one per core (each
# test compiles its kernels with one single-threaded `ferrozyme` process, so one pytest
# process keeps one core busy). The compiled-library cache is shared: its entries are
# written to temporary names and renamed into place, so concurrent builds are safe.
# The halves are balanced by measured time (session 22: 142 s and 254 s; pytest
# --durations per file in session 23 moved front34 and probe27 over to the first half;
# session 26: 224 s and 238 s, then with front45 moved to the first half 213 s and 219 s;
# session 28, the compiled-library cache empty as in CI, with front47: 207 s and 267 s, so
# front47 (about 50 s cold, new this session) went to the first half: 250 s and 250 s).
GROUP_A=(tests/test_probe29_users.py tests/test_probe28_users.py tests/test_probe30_users.py
  tests/test_front34_users.py tests/test_probe27_users.py tests/test_front40_users.py
  tests/test_numba.py tests/test_signature.py tests/test_install.py tests/test_front45_users.py
  tests/test_front47_users.py)
GROUP_B=()
for f in tests/test_*.py; do
  case " ${GROUP_A[*]} " in *" $f "*) ;; *) GROUP_B+=("$f") ;; esac
done
LOGS=$(mktemp -d)
trap 'rm -rf "$LOGS"' EXIT
start=$SECONDS
"${PYTEST[@]}" "${GROUP_A[@]}" > "$LOGS/a" 2>&1 & pid_a=$!
"${PYTEST[@]}" "${GROUP_B[@]}" > "$LOGS/b" 2>&1 & pid_b=$!
status=0
wait $pid_a || status=1
wait $pid_b || status=1
echo "== python tests, part 1 of 2 (${GROUP_A[*]})"
cat "$LOGS/a"
echo "== python tests, part 2 of 2 (the other files)"
cat "$LOGS/b"
echo "== python tests: both parts in $((SECONDS - start)) s wall, $([ $status = 0 ] && echo passed || echo FAILED)"
exit $status
