"""Regenerates gnubg-cube0.jsonl: GNU Backgammon's own 0-ply cube decisions
for the settings the oracle files (/work/shared/oracle) do not cover at 0 ply:
money play with the Jacoby rule, beavers and owned cubes, and match play at
several scores and cubes (Kazaross-XG2 MET, gnubg's default).

Each line: the setting, the position (Position ID, player on roll), gnubg's
position class, the cube and score, gnubg's 0-ply cubeless probabilities as it
prints them (6 decimals), and its cubeful equities (normalised, EMG) for no
double / double-take / double-pass with its verdict; in match play also the
same as match winning chances (nd_mwc, dt_mwc, dp_mwc). The positions are the
first ones of the oracle's cube_money.jsonl and cube_match.jsonl.

Run it twice (GNU Backgammon 1.07.001, Debian package gnubg 1.07.001-1+b1):

    /usr/games/gnubg -t -q -r -p gnubg-cube0.py > /tmp/gnubg-cube0.raw
    python3 gnubg-cube0.py /tmp/gnubg-cube0.raw > gnubg-cube0.jsonl

The first run (inside gnubg) prints gnubg's `hint` output between markers;
the second turns it into JSON lines. Set GAMMON_ORACLE to the oracle folder if
it is not /work/shared/oracle.
"""
import base64
import json
import os
import re
import sys

ORACLE = os.environ.get('GAMMON_ORACLE', '/work/shared/oracle')
MONEY_POSITIONS = 48
MATCH_POSITIONS = 32
CLASSES = ['over', 'hypergammon1', 'hypergammon2', 'hypergammon3', 'bearoff2', 'bearoff_ts', 'bearoff1',
           'bearoff_os', 'race', 'crashed', 'contact']
# (name, cube log2, owner (0 = on roll, 3 = centred), jacoby, beavers)
MONEY = [('money_jacoby', 0, 3, True, 0), ('money_beaver', 0, 3, False, 1), ('money_jacoby_beaver', 0, 3, True, 1),
         ('money_owned_cube2', 1, 0, False, 0), ('money_owned_cube4_beaver', 2, 0, False, 1)]
# (name, match length, score on roll, score opponent, cube log2, owner)
MATCH = [('5pt_0-0', 5, 0, 0, 0, 3), ('5pt_2away-4away', 5, 3, 1, 0, 3), ('5pt_4away-2away', 5, 1, 3, 0, 3),
         ('5pt_postcrawford_3away-1away', 5, 2, 4, 0, 3), ('7pt_0-0', 7, 0, 0, 0, 3), ('3pt_0-0', 3, 0, 0, 0, 3),
         ('9pt_6away-4away', 9, 3, 5, 0, 3), ('15pt_12away-5away', 15, 3, 10, 0, 3),
         ('7pt_5away-5away_cube2_me', 7, 2, 2, 1, 0), ('5pt_5away-3away_cube2_me', 5, 0, 2, 1, 0),
         ('5pt_3away-3away_cube2_me', 5, 2, 2, 1, 0), ('7pt_4away-6away_cube2_me', 7, 3, 1, 1, 0)]


def match_id(cube_log, owner, length=0, s0=0, s1=0, jacoby=False):
    """gnubg Match ID: player 0 on roll and to act, game playing, no dice."""
    fields = [(cube_log, 4), (owner, 2), (0, 1), (0, 1), (1, 3), (0, 1), (0, 1), (0, 2), (0, 3), (0, 3),
              (length, 15), (s0, 15), (s1, 15), (0 if jacoby else 1, 1), (0, 5)]
    bits = [(v >> k) & 1 for v, w in fields for k in range(w)]
    return base64.b64encode(bytes(sum(bits[8 * i + k] << k for k in range(8)) for i in range(9))).decode()


def positions(name, n):
    out = []
    for line in open(os.path.join(ORACLE, name)):
        p = json.loads(line)['pos']
        if p not in out:
            out.append(p)
    return out[:n]


def run_in_gnubg():
    import gnubg
    for c in ['set player 0 human', 'set player 1 human', 'set evaluation cubedecision evaluation plies 0',
              'set evaluation cubedecision evaluation prune off', 'set output digits 6', 'new session']:
        gnubg.command(c)

    def case(meta, pos, mid, beavers, both):
        gnubg.command('set beavers %d' % beavers)
        gnubg.command('set matchid ' + mid)
        gnubg.command('set board ' + pos)
        meta = dict(meta, pos=pos, **{'class': CLASSES[gnubg.classifypos(gnubg.board())]})
        for mwc in ([False, True] if both else [False]):
            gnubg.command('set output mwc ' + ('on' if mwc else 'off'))
            print('@@CASE ' + json.dumps(dict(meta, mwc=mwc)), flush=True)
            gnubg.command('hint')
            print('@@END', flush=True)
        gnubg.command('set output mwc off')

    for name, cl, owner, jac, bv in MONEY:
        for pos in positions('cube_money.jsonl', MONEY_POSITIONS):
            meta = dict(setting=name, match_length=0, score=[0, 0], cube=1 << cl,
                        owner='me' if owner == 0 else 'centre', jacoby=jac, beavers=bv > 0)
            case(meta, pos, match_id(cl, owner, jacoby=jac), bv, False)
    for name, n, s0, s1, cl, owner in MATCH:
        for pos in positions('cube_match.jsonl', MATCH_POSITIONS):
            meta = dict(setting=name, match_length=n, score=[s0, s1], cube=1 << cl,
                        owner='me' if owner == 0 else 'centre', jacoby=False, beavers=False)
            case(meta, pos, match_id(cl, owner, n, s0, s1), 0, True)


def parse(raw):
    records = {}
    order = []
    meta, buf = None, []
    for line in open(raw):
        if line.startswith('@@CASE '):
            meta, buf = json.loads(line[7:]), []
        elif line.startswith('@@END'):
            text = ''.join(buf)
            mwc = meta.pop('mwc')
            key = json.dumps(meta, sort_keys=True)
            if key not in records:
                records[key] = dict(meta)
                order.append(key)
            rec = records[key]
            m = re.search(r'0-ply cubeless (?:equity|MWC).*\n\s+([\d.]+) ([\d.]+) ([\d.]+) - [\d.]+ ([\d.]+) ([\d.]+)', text)
            if not m:
                raise SystemExit('no cube analysis for %s: %s' % (key, text[-200:]))
            rec['p'] = [float(m.group(i)) for i in range(1, 6)]
            for mm in re.finditer(r'^\d\. (.+?)\s{2,}([+-]?\s*[\d.]+)%?', text, re.M):
                label, value = mm.group(1), float(mm.group(2).replace(' ', ''))
                k = 'nd' if label.startswith('No') else ('dp' if 'pass' in label else 'dt')
                if mwc:
                    rec[k + '_mwc'] = round(value / 100, 8)
                else:
                    rec[k] = value
            a = re.search(r'Proper cube action: (.+)', text)
            rec['action'] = re.sub(r' \([\d.]+%\)$', '', a.group(1).strip())
            meta = None
        elif meta is not None:
            buf.append(line)
    for key in order:
        print(json.dumps(records[key], separators=(',', ':')))


if __name__ == '__main__':
    try:
        import gnubg  # noqa: F401  (only inside gnubg)
        run_in_gnubg()
    except ImportError:
        parse(sys.argv[1])
