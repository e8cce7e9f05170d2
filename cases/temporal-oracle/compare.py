#!/usr/bin/env python3
"""Differential test of `pancause temporal` against reference.py.

    compare.py [-j JOBS] [--bin BIN] [--relation both|subset|full|case]
               [--max-lassos M] [--bound N] [--timeout S] [--keep] [-v]
               [--manifest instances/instances.tsv] [--error-cases] [PATH...]

PATH is an instance directory (SYS.hoa + case.json, as written by gen.py)
or a directory of them.  For every instance and relation it runs

    BIN temporal --system SYS.hoa --trace T --effect E --relation R
                 --hoa OUT.hoa --json

(BIN: --bin, else $PANCAUSE, else <repo>/bin/pancause) and checks

  * the exit status: 0 when the effect holds on the trace, 3 when every
    system run matching the trace violates it (either 3, or 0 with no cause,
    when runs matching a trace with omitted outputs disagree), 1 for a
    trace no run matches;
  * on exit 0, the JSON on stdout: cause_exists equals the reference's
    (pi|I in the cause), `states` is an int and, with a cause, equals the
    States: of OUT.hoa;
  * with a cause: OUT.hoa is an automaton over (a subset of) the inputs and,
    for every input lasso up to the length bound, accepts it iff the
    reference puts it in the cause.  The bound is the largest N whose
    lassos (prefix+cycle <= N, distinct words) number at most M (default
    500), or --bound.

--error-cases adds runs on instances/fig1.hoa that must exit 1 (unknown
AP, malformed effect or trace, a trace that is no system trace, missing
system file), 2 (no --effect, unknown --relation) or 3 (effect violated).

Prints one line per failure with the details (instance, relation, a lasso
on which the two differ, both answers, the reference's witness) and ends
with "N passed, M failed"; exit status 1 on any failure.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True

import hoa  # noqa: E402
import reference as R  # noqa: E402

_bound_cache = {}


def choose_bound(nletters, max_lassos):
    key = (nletters, max_lassos)
    if key not in _bound_cache:
        n = 1
        while len(R.enumerate_lassos(list(range(nletters)), n + 1)) <= max_lassos:
            n += 1
            if n >= 12:
                break
        _bound_cache[key] = n
    return _bound_cache[key]


def collect(paths):
    tasks = []
    for p in paths:
        if os.path.isfile(os.path.join(p, 'case.json')):
            dirs = [p]
        else:
            dirs = sorted(os.path.join(p, d) for d in os.listdir(p)
                          if os.path.isfile(os.path.join(p, d, 'case.json')))
        for d in dirs:
            with open(os.path.join(d, 'case.json')) as fh:
                case = json.load(fh)
            tasks.append({'name': d, 'system': os.path.join(d, 'SYS.hoa'),
                          'trace': case['trace'], 'effect': case['effect'],
                          'relation': case.get('relation', 'subset')})
    return tasks


def collect_manifest(path):
    base = os.path.dirname(os.path.abspath(path))
    tasks = []
    with open(path) as fh:
        header = None
        for line in fh:
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            cols = line.split('\t')
            if header is None:
                header = cols
                continue
            row = dict(zip(header, cols))
            tasks.append({'name': row['name'], 'system': os.path.join(base, row['system']),
                          'trace': row['trace'], 'effect': row['effect'],
                          'relation': row['relation'], 'manifest': True})
    return tasks


def parse_json(out):
    out = out.strip()
    try:
        return json.loads(out)
    except ValueError:
        pass
    k = out.rfind('\n{')
    if k >= 0:
        try:
            return json.loads(out[k + 1:])
        except ValueError:
            pass
    k = out.find('{')
    if k >= 0:
        try:
            return json.loads(out[k:])
        except ValueError:
            pass
    return None


ERROR_CASES = [
    # (what, extra/replaced arguments, expected exit status); on fig1.hoa
    ('unknown AP in the effect', {'--effect': 'F z'}, 1),
    ('malformed effect', {'--effect': 'F (e'}, 1),
    ('trace not a system trace', {'--trace': 'cycle{x&!y&!e}'}, 1),
    ('malformed trace', {'--trace': 'x;cycle{'}, 1),
    ('unknown AP in the trace', {'--trace': 'cycle{x&z}'}, 1),
    ('missing system file', {'--system': '/nonexistent/SYS.hoa'}, 1),
    ('no --effect', {'--effect': None}, 2),
    ('bad --relation', {'--relation': 'closest'}, 2),
    ('effect violated on the trace', {'--effect': 'G !e'}, 3),
]


def run_error_case(task):
    args = {'--system': task['system'], '--trace': 'cycle{x&!y&e}', '--effect': 'F e',
            '--relation': 'subset', '--hoa': os.path.join(task['workdir'], 'err.hoa')}
    args.update(task['override'])
    cmd = [task['bin'], 'temporal']
    for k, v in args.items():
        if v is not None:
            cmd += [k, v]
    cmd.append('--json')
    res = {'tag': 'error case: %s' % task['name'], 'ok': False, 'details': [], 'lassos': 0,
           'tool_s': 0.0}
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=task['timeout'])
    except (subprocess.TimeoutExpired, OSError) as e:
        res['details'].append(str(e))
        return res
    if p.returncode != task['expect_rc']:
        res['details'].append('exit status %d, expected %d' % (p.returncode, task['expect_rc']))
        res['details'].append('cmd: %s' % ' '.join(cmd))
    res['ok'] = not res['details']
    return res


def run_task(task):
    if 'expect_rc' in task:
        return run_error_case(task)
    return run_one(task)


def run_one(task):
    t0 = time.time()
    name, rel = task['name'], task['relation']
    tag = '%s [%s]' % (name, rel)
    res = {'tag': tag, 'ok': False, 'details': [], 'lassos': 0, 'tool_s': 0.0}
    det = res['details']
    try:
        system = R.load_system(task['system'])
        ref = R.Reference(system, task['trace'], task['effect'], rel)
    except R.InputError as e:
        det.append('reference rejects the instance: %s' % e)
        return res
    status = ref.effect_status()
    cause = ref.cause_exists() if status in ('holds', 'ambiguous') else False
    work = tempfile.mkdtemp(prefix='run-', dir=task['workdir'])
    out_hoa = os.path.join(work, 'OUT.hoa')
    cmd = [task['bin'], 'temporal', '--system', task['system'], '--trace', task['trace'],
           '--effect', task['effect'], '--relation', rel, '--hoa', out_hoa, '--json']
    res['cmd'] = ' '.join("'%s'" % c if any(ch in c for ch in ' ;{}&|!()<>') else c for c in cmd)
    t1 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=task['timeout'])
    except subprocess.TimeoutExpired:
        det.append('timeout after %ss' % task['timeout'])
        det.append('cmd: %s' % res['cmd'])
        return res
    except OSError as e:
        det.append('cannot run %s: %s' % (task['bin'], e))
        return res
    res['tool_s'] = time.time() - t1
    rc = p.returncode
    want = {'holds': {0}, 'violated': {3}, 'ambiguous': {0, 3},
            'inconsistent': {1}}[status]

    def fail(msg):
        det.append(msg)

    if rc not in want:
        fail('exit status %d, expected %s (effect on the trace: %s; reference cause_exists=%s)'
             % (rc, '/'.join(map(str, sorted(want))), status, cause))
        if p.stderr.strip():
            fail('stderr: %s' % p.stderr.strip()[:500])
    elif rc == 3:
        js = parse_json(p.stdout)
        if not isinstance(js, dict) or not isinstance(js.get('message'), str):
            res.setdefault('warnings', []).append('exit 3 without a JSON "message" on stdout')
    elif rc == 0:
        js = parse_json(p.stdout)
        if not isinstance(js, dict):
            fail('stdout is not a JSON object: %r' % p.stdout[:300])
        else:
            ce = js.get('cause_exists')
            if ce is not cause:
                fail('cause_exists=%r, reference %r (effect on the trace: %s)' % (ce, cause, status))
            if not isinstance(js.get('states'), int):
                fail('JSON "states" is not an int: %r' % (js.get('states'),))
            if cause and ce is True:
                if not isinstance(js.get('hoa'), str):
                    fail('JSON "hoa" is not a path: %r' % (js.get('hoa'),))
                check_nba(task, ref, system, out_hoa, js, res, fail)
            if not cause and not isinstance(js.get('message'), str):
                fail('no cause, but the JSON has no "message"')
            elif not cause and os.path.exists(out_hoa):
                note_empty(ref, system, out_hoa, task, res)
    res['ok'] = not det
    if det:
        det.append('cmd: %s' % res['cmd'])
        res['work'] = work
        if os.path.exists(out_hoa):
            det.append('tool output kept: %s' % out_hoa)
    if res['ok'] and not task['keep']:
        shutil.rmtree(work, ignore_errors=True)
    res['total_s'] = time.time() - t0
    return res


def _lassos_for(system, task):
    bound = task['bound'] or choose_bound(len(system.in_vals), task['max_lassos'])
    return bound, R.enumerate_lassos(system.in_vals, bound)


def check_nba(task, ref, system, out_hoa, js, res, fail):
    try:
        nba = hoa.read(out_hoa)
    except (OSError, hoa.HOAError) as e:
        fail('cannot read %s: %s' % (out_hoa, e))
        return
    innames = {system.aps[i] for i in system.inputs}
    extra = [a for a in nba.aps if a not in innames]
    if extra:
        fail('cause automaton has non-input APs %s' % extra)
        return
    if js.get('states') != nba.nstates:
        fail('JSON states=%r but %s has States: %d' % (js.get('states'), out_hoa, nba.nstates))
    bound, lassos = _lassos_for(system, task)
    res['lassos'] = len(lassos)
    diffs = []
    for lasso in lassos:
        mine = ref.member(lasso)
        pre = [system.names(m) for m in lasso[0]]
        cyc = [system.names(m) for m in lasso[1]]
        theirs = nba.accepts_lasso(pre, cyc)
        if mine != theirs:
            diffs.append((lasso, mine, theirs))
    if diffs:
        fail('%d of %d input lassos (bound %d) differ' % (len(diffs), len(lassos), bound))
        for lasso, mine, theirs in diffs[:3]:
            fail('  %s: reference %s, tool %s'
                 % (system.lasso_str(*lasso), 'in cause' if mine else 'not in cause',
                    'accepts' if theirs else 'rejects'))
            if not mine:
                w = ref.violation(lasso)
                sp = R.canonical([l & system.in_mask for l in w['letters_prefix']],
                                 [l & system.in_mask for l in w['letters_cycle']])
                run = R.canonical(w['letters_prefix'], w['letters_cycle'])
                fail("    reference witness: sigma' = %s <=_pi sigma, its run %s violates the effect"
                     % (system.lasso_str(*sp),
                        system.lasso_str(*run, which=list(range(len(system.aps))))))


def note_empty(ref, system, out_hoa, task, res):
    try:
        nba = hoa.read(out_hoa)
    except (OSError, hoa.HOAError):
        return
    bound, lassos = _lassos_for(system, task)
    for lasso in lassos:
        if nba.accepts_lasso([system.names(m) for m in lasso[0]],
                             [system.names(m) for m in lasso[1]]):
            res.setdefault('warnings', []).append(
                'no cause, but %s accepts %s' % (out_hoa, system.lasso_str(*lasso)))
            return


def main(argv=None):
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument('paths', nargs='*')
    ap.add_argument('--manifest')
    ap.add_argument('--bin', default=os.environ.get('PANCAUSE', os.path.join(ROOT, 'bin', 'pancause')))
    ap.add_argument('-j', '--jobs', type=int, default=int(os.environ.get('TEMPORAL_JOBS', '2')))
    ap.add_argument('--relation', default=None, choices=['both', 'subset', 'full', 'case'],
                    help='default: both for PATHs, the row\'s for --manifest')
    ap.add_argument('--max-lassos', type=int, default=500)
    ap.add_argument('--bound', type=int, default=0)
    ap.add_argument('--timeout', type=float, default=60.0)
    ap.add_argument('--keep', action='store_true', help='keep tool outputs of passing runs')
    ap.add_argument('--error-cases', action='store_true',
                    help='also check the exit status on bad input/usage (fig1.hoa)')
    ap.add_argument('-v', '--verbose', action='store_true')
    args = ap.parse_args(argv)
    base = collect_manifest(args.manifest) if args.manifest else []
    base += collect(args.paths)
    if not base and not args.error_cases:
        ap.error('no instances')
    tasks = []
    seen = set()
    for t in base:
        relation = args.relation or ('case' if t.get('manifest') else 'both')
        if relation == 'case':
            rels = [t['relation']]
        elif relation == 'both':
            rels = ['subset', 'full']
        else:
            rels = [relation]
        for r in rels:
            key = (t['name'], t['system'], t['trace'], t['effect'], r)
            if key in seen:
                continue
            seen.add(key)
            tt = dict(t, relation=r, bin=args.bin, bound=args.bound,
                      max_lassos=args.max_lassos, timeout=args.timeout, keep=args.keep)
            tasks.append(tt)
    if args.error_cases:
        fig1 = os.path.join(HERE, 'instances', 'fig1.hoa')
        for what, override, rc in ERROR_CASES:
            tasks.append({'name': what, 'system': fig1, 'override': override, 'expect_rc': rc,
                          'bin': args.bin, 'timeout': args.timeout})
    workdir = tempfile.mkdtemp(prefix='temporal-cmp-')
    for t in tasks:
        t['workdir'] = workdir
    t0 = time.time()
    passed = failed = 0
    lassos = 0
    tool_s = 0.0
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        for res in ex.map(run_task, tasks):
            lassos += res['lassos']
            tool_s += res['tool_s']
            if res['ok']:
                passed += 1
                if args.verbose:
                    print('ok   %s (%d lassos, tool %.2fs)' % (res['tag'], res['lassos'], res['tool_s']))
            else:
                failed += 1
                print('FAIL %s' % res['tag'])
                for d in res['details']:
                    print('     %s' % d)
            for w in res.get('warnings', []):
                print('warn %s: %s' % (res['tag'], w))
            sys.stdout.flush()
    print('(%d runs, %d lasso checks, tool %.1fs, wall %.1fs)'
          % (len(tasks), lassos, tool_s, time.time() - t0))
    if not failed and not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
