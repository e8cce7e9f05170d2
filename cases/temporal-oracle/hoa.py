"""A small HOA v1 reader (https://adl.github.io/hoaf/), stdlib only.

Supported: explicit states, `Start:` (one or more lines, no conjunctions),
`AP:`, `controllable-AP:`, `Alias:`, labels on edges and/or on states
(Boolean expressions over AP indices, aliases, t, f, !, &, |, parentheses),
acceptance sets on states (state-based) or on edges (transition-based), and
the acceptance conditions `t`, `f`, and conjunctions of `Inf(k)`
(generalised Buchi; `Inf(0)` is Buchi).  Universal branching, implicit
labels and other acceptance conditions are rejected.

  read(text_or_path) -> Automaton
  Automaton.accepts_lasso(prefix, cycle, names=None)
      membership of the ultimately periodic word prefix.cycle^omega; letters
      are sets of AP names (APs of the automaton absent from a letter are
      false; names outside the automaton's APs are ignored).
"""

import os
import re


class HOAError(ValueError):
    pass


# ------------------------------------------------------- label expressions

_LTOK = re.compile(r'\s*(?:(\d+)|(@[A-Za-z0-9_.-]+)|([tf])\b|(!)|(&)|(\|)|(\()|(\)))')


def parse_label(text, aliases=None):
    """Label expression -> AST: ('t',) ('f',) ('v', i) ('!', e) ('&', a, b)
    ('|', a, b)."""
    toks = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _LTOK.match(text, pos)
        if not m or m.end() == pos:
            raise HOAError("bad label expression %r" % text)
        pos = m.end()
        if m.group(1):
            toks.append(('v', int(m.group(1))))
        elif m.group(2):
            toks.append(('alias', m.group(2)))
        elif m.group(3):
            toks.append((m.group(3),))
        elif m.group(4):
            toks.append(('!',))
        elif m.group(5):
            toks.append(('&',))
        elif m.group(6):
            toks.append(('|',))
        elif m.group(7):
            toks.append(('(',))
        else:
            toks.append((')',))
    toks.append(('eof',))
    i = [0]

    def peek():
        return toks[i[0]]

    def nxt():
        t = toks[i[0]]
        i[0] += 1
        return t

    def orr():
        e = andd()
        while peek()[0] == '|':
            nxt()
            e = ('|', e, andd())
        return e

    def andd():
        e = un()
        while peek()[0] == '&':
            nxt()
            e = ('&', e, un())
        return e

    def un():
        t = nxt()
        if t[0] == '!':
            return ('!', un())
        if t[0] == '(':
            e = orr()
            if nxt()[0] != ')':
                raise HOAError("missing ) in %r" % text)
            return e
        if t[0] in ('t', 'f'):
            return (t[0],)
        if t[0] == 'v':
            return t
        if t[0] == 'alias':
            if aliases is None or t[1] not in aliases:
                raise HOAError("unknown alias %s" % t[1])
            return aliases[t[1]]
        raise HOAError("bad label expression %r" % text)

    e = orr()
    if peek()[0] != 'eof':
        raise HOAError("trailing text in label %r" % text)
    return e


def eval_label(e, val):
    """val: bit mask over AP indices."""
    op = e[0]
    if op == 't':
        return True
    if op == 'f':
        return False
    if op == 'v':
        return bool(val >> e[1] & 1)
    if op == '!':
        return not eval_label(e[1], val)
    if op == '&':
        return eval_label(e[1], val) and eval_label(e[2], val)
    return eval_label(e[1], val) or eval_label(e[2], val)


def label_vars(e, acc=None):
    if acc is None:
        acc = set()
    if e[0] == 'v':
        acc.add(e[1])
    for s in e[1:]:
        if isinstance(s, tuple):
            label_vars(s, acc)
    return acc


# --------------------------------------------------------------- automaton

class Automaton:
    def __init__(self):
        self.name = None
        self.nstates = None
        self.start = []
        self.aps = []
        self.controllable = None      # list of AP indices or None
        self.nsets = 0
        self.acc = ('t',)             # ('t',) ('f',) or ('inf', frozenset)
        self.edges = {}               # state -> list of (label_ast, dst, accset)
        self.state_acc = {}           # state -> frozenset of sets
        self.state_names = {}

    # edge acceptance: a state's sets apply to all its outgoing edges
    def edge_marks(self, s, eacc):
        return frozenset(eacc) | self.state_acc.get(s, frozenset())

    def required(self):
        if self.acc[0] == 'inf':
            return self.acc[1]
        return frozenset()

    def letter_mask(self, letter, names=None):
        m = 0
        for i, a in enumerate(self.aps):
            if a in letter:
                m |= 1 << i
        return m

    def accepts_lasso(self, prefix, cycle):
        """prefix, cycle: lists of sets of AP names."""
        if self.acc[0] == 'f':
            return False
        word = [self.letter_mask(l) for l in list(prefix) + list(cycle)]
        n = len(word)
        lp = len(prefix)
        req = self.required()
        # product graph (pos, state); edges carry acceptance sets
        init = [(0, s) for s in self.start]
        adj = {}
        stack = list(dict.fromkeys(init))
        seen = set(stack)
        while stack:
            node = stack.pop()
            pos, s = node
            npos = pos + 1 if pos + 1 < n else lp
            out = []
            for lab, dst, eacc in self.edges.get(s, []):
                if eval_label(lab, word[pos]):
                    nn = (npos, dst)
                    out.append((nn, self.edge_marks(s, eacc)))
                    if nn not in seen:
                        seen.add(nn)
                        stack.append(nn)
            adj[node] = out
        for comp in _sccs(list(seen), adj):
            cset = set(comp)
            marks = set()
            internal = False
            for u in comp:
                for v, m in adj[u]:
                    if v in cset:
                        internal = True
                        marks |= m
            if internal and req <= marks:
                return True
        return False


def _sccs(nodes, adj):
    """Iterative Tarjan; adj[u] = list of (v, payload)."""
    index = {}
    low = {}
    onstack = set()
    st = []
    out = []
    counter = [0]
    for root in nodes:
        if root in index:
            continue
        work = [(root, 0)]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        st.append(root)
        onstack.add(root)
        while work:
            u, i = work[-1]
            succ = adj.get(u, [])
            if i < len(succ):
                work[-1] = (u, i + 1)
                v = succ[i][0]
                if v not in index:
                    index[v] = low[v] = counter[0]
                    counter[0] += 1
                    st.append(v)
                    onstack.add(v)
                    work.append((v, 0))
                elif v in onstack:
                    low[u] = min(low[u], index[v])
            else:
                work.pop()
                if work:
                    p = work[-1][0]
                    low[p] = min(low[p], low[u])
                if low[u] == index[u]:
                    comp = []
                    while True:
                        w = st.pop()
                        onstack.discard(w)
                        comp.append(w)
                        if w == u:
                            break
                    out.append(comp)
    return out


def _parse_acc(text):
    text = text.strip()
    if text in ('t', '(t)'):
        return ('t',)
    if text in ('f', '(f)'):
        return ('f',)
    parts = [p.strip() for p in text.split('&')]
    sets = set()
    for p in parts:
        p = p.strip()
        while p.startswith('(') and p.endswith(')') and p.count('(') == 1 + p[1:-1].count('('):
            p = p[1:-1].strip()
        m = re.fullmatch(r'Inf\(\s*(\d+)\s*\)', p)
        if not m:
            raise HOAError("unsupported acceptance condition %r" % text)
        sets.add(int(m.group(1)))
    return ('inf', frozenset(sets))


def _split_header_tokens(s):
    return re.findall(r'"(?:[^"\\]|\\.)*"|\S+', s)


def read(src):
    """Parse HOA text (or a path to a file holding it)."""
    if '\n' not in src and os.path.exists(src):
        with open(src) as fh:
            src = fh.read()
    text = re.sub(r'/\*.*?\*/', ' ', src, flags=re.S)
    if '--BODY--' not in text:
        raise HOAError("no --BODY--")
    head, rest = text.split('--BODY--', 1)
    if '--END--' not in rest:
        raise HOAError("no --END--")
    body = rest.split('--END--', 1)[0]
    a = Automaton()
    aliases = {}
    # header: "name: value" items (a value runs to the next item name)
    items = []
    for tok in re.findall(r'"(?:[^"\\]|\\.)*"|[^\s"]+', head):
        if not tok.startswith('"') and re.fullmatch(r'[A-Za-z@][A-Za-z0-9_-]*:', tok):
            items.append([tok[:-1], []])
        elif items:
            items[-1][1].append(tok)
        else:
            raise HOAError("bad header token %r" % tok)
    items = [(k, ' '.join(v)) for k, v in items]
    if not items or items[0][0] != 'HOA':
        raise HOAError("missing HOA: v1 header")
    for key, val in items:
        val = val.strip()
        if key == 'States':
            a.nstates = int(val)
        elif key == 'Start':
            if '&' in val:
                raise HOAError("universal initial states are not supported")
            a.start.append(int(val))
        elif key == 'AP':
            toks = _split_header_tokens(val)
            n = int(toks[0])
            names = [t[1:-1] for t in toks[1:]]
            if len(names) != n:
                raise HOAError("AP: count %d but %d names" % (n, len(names)))
            a.aps = names
        elif key == 'controllable-AP':
            a.controllable = [int(t) for t in val.split()]
        elif key == 'Acceptance':
            toks = val.split(None, 1)
            a.nsets = int(toks[0])
            a.acc = _parse_acc(toks[1] if len(toks) > 1 else 't')
        elif key == 'Alias':
            m = re.match(r'(@[A-Za-z0-9_.-]+)\s+(.*)$', val, re.S)
            if not m:
                raise HOAError("bad Alias: %r" % val)
            aliases[m.group(1)] = parse_label(m.group(2), aliases)
        elif key == 'name':
            a.name = val.strip('"')
    if a.nstates is None:
        # States: is optional; derived from the body
        pass
    # body
    cur = None
    cur_label = None
    tokens = re.findall(r'State:|\[[^\]]*\]|\{[^}]*\}|"(?:[^"\\]|\\.)*"|[^\s\[\]{}"]+', body)
    i = 0
    n = len(tokens)
    while i < n:
        t = tokens[i]
        if t == 'State:':
            i += 1
            lab = None
            if i < n and tokens[i].startswith('['):
                lab = parse_label(tokens[i][1:-1], aliases)
                i += 1
            cur = int(tokens[i])
            i += 1
            if i < n and tokens[i].startswith('"'):
                a.state_names[cur] = tokens[i][1:-1]
                i += 1
            sacc = frozenset()
            if i < n and tokens[i].startswith('{'):
                sacc = frozenset(int(x) for x in tokens[i][1:-1].split())
                i += 1
            a.state_acc[cur] = sacc
            a.edges.setdefault(cur, [])
            cur_label = lab
            continue
        if cur is None:
            raise HOAError("edge before State:")
        lab = None
        if t.startswith('['):
            lab = parse_label(t[1:-1], aliases)
            i += 1
            t = tokens[i]
        if lab is None:
            lab = cur_label
        if lab is None:
            raise HOAError("implicit labels are not supported")
        if cur_label is not None and lab is not cur_label:
            lab = ('&', cur_label, lab)
        if not re.fullmatch(r'\d+', t):
            raise HOAError("bad edge target %r" % t)
        dst = int(t)
        i += 1
        if i < n and tokens[i] == '&':
            raise HOAError("universal branching is not supported")
        eacc = frozenset()
        if i < n and tokens[i].startswith('{'):
            eacc = frozenset(int(x) for x in tokens[i][1:-1].split())
            i += 1
        a.edges[cur].append((lab, dst, eacc))
    if a.nstates is None:
        sts = set(a.edges) | {d for es in a.edges.values() for _, d, _ in es}
        a.nstates = (max(sts) + 1) if sts else 0
    if not a.start and a.nstates:
        raise HOAError("no Start:")
    for s in list(a.start) + [d for es in a.edges.values() for _, d, _ in es]:
        if s < 0 or s >= a.nstates:
            raise HOAError("state %d out of range" % s)
    for es in a.edges.values():
        for lab, _, _ in es:
            for v in label_vars(lab):
                if v >= len(a.aps):
                    raise HOAError("AP index %d out of range" % v)
    return a


# ---------------------------------------------------------------- writing

def cube(bits, nvars_idx):
    """Conjunction for the valuation `bits` over the AP indices in
    nvars_idx (list)."""
    if not nvars_idx:
        return 't'
    return '&'.join(('%d' % i) if bits >> i & 1 else ('!%d' % i) for i in nvars_idx)


def write(path, name, aps, controllable, nstates, start, edges):
    """edges: list of (src, label_text, dst).  Acceptance: all runs."""
    lines = ['HOA: v1', 'name: "%s"' % name, 'States: %d' % nstates,
             'Start: %d' % start,
             'AP: %d %s' % (len(aps), ' '.join('"%s"' % a for a in aps))]
    if controllable is not None:
        lines.append('controllable-AP: %s' % ' '.join(str(c) for c in controllable))
    lines += ['acc-name: all', 'Acceptance: 0 t',
              'properties: trans-labels explicit-labels state-acc', '--BODY--']
    for s in range(nstates):
        lines.append('State: %d' % s)
        for src, lab, dst in edges:
            if src == s:
                lines.append('[%s] %d' % (lab, dst))
    lines.append('--END--')
    with open(path, 'w') as fh:
        fh.write('\n'.join(lines) + '\n')
