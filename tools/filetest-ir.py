#!/usr/bin/env python3
"""Input IR for an IR filetest (tests/filetests, see tests/README.md).

    python3 tools/filetest-ir.py file.c [clang flags] > body.ll

Compiles `file.c` with `clang-22 -O2 -fno-discard-value-names` (and -fno-unroll-loops
-fno-vectorize -fno-slp-vectorize, so loops stay readable; later flags win) and prints the
module without attribute groups, metadata and parameter/flag noise (noundef, nuw, inbounds
...), keeping clang's value and block names. Environment: KEEPLOOP=1 keeps `!llvm.loop`
and the metadata it needs; KEEPMEM=1 keeps each defined function's `memory(...)`
attribute (activity and the write analysis read it).
"""
import sys, os, re, subprocess
f, flags = sys.argv[1], sys.argv[2:]
ir = subprocess.run(['clang-22','-O2','-fno-discard-value-names','-S','-emit-llvm','-fno-unroll-loops','-fno-vectorize','-fno-slp-vectorize',*flags,f,'-o','-'],capture_output=True,text=True,check=True).stdout
keeploop, keepmem = os.environ.get('KEEPLOOP'), os.environ.get('KEEPMEM')
groups = {}
for l in ir.splitlines():
    m = re.match(r'attributes #(\d+) = \{(.*)\}', l)
    if m:
        mm = re.search(r'memory\([^)]*\)', m.group(2))
        if mm: groups[m.group(1)] = mm.group(0)
out = []
for l in ir.splitlines():
    if re.match(r'^(attributes|; ModuleID|source_filename)', l): continue
    if l.startswith('!'):
        if not keeploop or re.match(r'^!(llvm\.module\.flags|llvm\.ident|llvm\.errno\.tbaa|[0-4] = )', l): continue
    if l.startswith('; Function Attrs'): continue
    if keepmem and l.startswith('define'):
        m = re.search(r' #(\d+) \{$', l)
        if m and m.group(1) in groups: l = l[:m.start()] + ' ' + groups[m.group(1)] + ' {'
    l = re.sub(r' #\d+', '', l)
    l = re.sub(r', !(tbaa|prof' + ('' if keeploop else r'|llvm\.loop') + r') !\d+', '', l)
    l = re.sub(r' (noundef|dso_local|local_unnamed_addr|nofree|nocapture|readonly|writeonly|captures\(none\)|nonnull|align \d+ dereferenceable\(\d+\)|nuw|nsw|nneg|inbounds|range\([^)]*\)|initializes\([^)]*\)|samesign|disjoint|tail|noalias writeonly)(?=[ ,)]|$)', '', l)
    out.append(l)
text = re.sub(r'\n{3,}', '\n\n', '\n'.join(out))
print(text)
