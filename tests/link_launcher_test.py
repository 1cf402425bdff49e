#!/usr/bin/env python3
"""scripts/link-launcher with a stand-in linker: a link is reused only when everything it reads is the same.

The stand-in writes OUT (its inputs' bytes) and OUT's .wasm sibling, as emcc writes a .js and a .wasm, and
counts its runs. Each case states what the cache must do; a stale module handed back would fail case 3.
"""
import os
import subprocess
import sys
import tempfile

LAUNCHER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'scripts', 'link-launcher')
LINKER = r'''#!/usr/bin/env python3
import sys
args = sys.argv[1:]
out = args[args.index('-o') + 1]
inputs = [a for a in args if not a.startswith('-') and a != out]
with open('runs', 'a') as f:
    f.write('run\n')
if '-fail' in args:
    sys.exit(3)
data = b''.join(open(i, 'rb').read() for i in inputs)
open(out, 'wb').write(data)
open(out.rsplit('.', 1)[0] + '.wasm', 'wb').write(data[::-1])
'''

failures = []


def check(what, ok):
    print(('ok: ' if ok else 'FAILED: ') + what)
    if not ok:
        failures.append(what)


with tempfile.TemporaryDirectory() as work:
    os.chdir(work)
    open('ld.py', 'w').write(LINKER)
    os.chmod('ld.py', 0o755)
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, 'cache'))
    env.pop('POSENC_LINK_CACHE', None)
    runs = lambda: len(open('runs').read().split()) if os.path.exists('runs') else 0
    link = lambda *extra, **kw: subprocess.call([sys.executable, LAUNCHER, os.path.join(work, 'ld.py'), 'a.o', 'b.a',
                                                 '-o', 'out.js', *extra], env=dict(env, **kw))
    read = lambda name: open(name, 'rb').read()
    open('a.o', 'wb').write(b'first object')
    open('b.a', 'wb').write(b'archive')

    check('1. a first link runs the linker', link() == 0 and runs() == 1 and read('out.js') == b'first objectarchive')
    os.remove('out.js')
    os.remove('out.wasm')
    check('2. the same link again is taken from the cache, both outputs',
          link() == 0 and runs() == 1 and read('out.js') == b'first objectarchive' and read('out.wasm') == b'evihcratcejbo tsrif')
    open('a.o', 'wb').write(b'second object')
    check('3. an input with other bytes links again', link() == 0 and runs() == 2 and read('out.js') == b'second objectarchive')
    check('4. another flag links again', link('-Os') == 0 and runs() == 3)
    check('5. another EMCC_ environment links again', link(EMCC_CFLAGS='-g') == 0 and runs() == 4)
    check('6. a failed link fails, and is not kept', link('-fail') == 3 and link('-fail') == 3 and runs() == 6)
    check('7. POSENC_LINK_CACHE=0 always links', link(POSENC_LINK_CACHE='0') == 0 and runs() == 7)
    check('8. the first inputs again: the cache still has them', open('a.o', 'wb').write(b'first object') and
          link() == 0 and runs() == 7 and read('out.js') == b'first objectarchive')

sys.exit(1 if failures else 0)
