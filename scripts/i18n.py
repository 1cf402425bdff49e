#!/usr/bin/python3
"""The interface's catalogues (i18n/<lang>.json; app/i18n.h says how the app reads them).

  The literals are the first argument of every tr / tr_id / trf call in src/ and of every t / tf call in
  web/ (the page's own words).

  scripts/i18n.py check           every catalogue well formed: en.json maps each key to itself, every other
                                  catalogue has exactly en.json's keys, each text keeps its key's {N}
                                  placeholders and printf conversions (same conversions, same order), no
                                  text holds "##" (ImGui's ID marker); and every literal the sources pass to
                                  tr / tr_id / trf is a key. Exit 1 naming each problem.
  scripts/i18n.py missing [--add] the literals of the sources' tr / tr_id / trf calls that en.json lacks
                                  (--add: into en.json, and into the other catalogues with an empty text
                                  for the translator: `check` fails until each is filled).
"""
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
I18N = os.path.join(ROOT, 'i18n')
PRINTF = re.compile(r'%%|%[-+ #0]*(?:\*|\d+)?(?:\.(?:\*|\d+))?(?:hh|h|ll|l|L|z|j|t)?[diouxXeEfFgGaAcsp]')
BRACE = re.compile(r'\{\d(?::tr)?\}')


def catalogues():
    out = {}
    for name in sorted(os.listdir(I18N)):
        if name.endswith('.json'):
            with open(os.path.join(I18N, name), encoding='utf-8') as f:
                out[name[:-5]] = json.load(f)
    return out


ESCAPES = {'n': '\n', 't': '\t', '"': '"', '\\': '\\', "'": "'"}


def unescape(literal):
    """The text of adjacent C++ string literals (the escapes the sources use: \\n \\t \\" \\\\ \\uXXXX)."""
    text = ''.join(re.findall(r'"((?:[^"\\]|\\.)*)"', literal))

    def one(m):
        e = m.group(1)
        return chr(int(e[1:], 16)) if e[0] == 'u' else ESCAPES.get(e, e)
    return re.sub(r'\\(u[0-9a-fA-F]{4}|.)', one, text)


CALL_START = re.compile(r'\b(tr|tr_id|trf)\(')
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')


def first_argument(text, start):
    """The text of the call's first argument (from `start`, just past the opening parenthesis)."""
    depth, i, in_str = 0, start, False
    while i < len(text):
        c = text[i]
        if in_str:
            if c == '\\':
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c in '([{':
            depth += 1
        elif c in ')]}':
            if depth == 0:
                return text[start:i]
            depth -= 1
        elif c == ',' and depth == 0:
            return text[start:i]
        i += 1
    return text[start:]


def literals(argument):
    """The texts an argument can be: its string literals, adjacent ones joined ("a" "b" is one)."""
    out, pieces, last_end = [], [], None
    for m in LITERAL.finditer(argument):
        if last_end is not None and argument[last_end:m.start()].strip() == '':
            pieces.append(m.group(0))
        else:
            if pieces:
                out.append(unescape(' '.join(pieces)))
            pieces = [m.group(0)]
        last_end = m.end()
    if pieces:
        out.append(unescape(' '.join(pieces)))
    return out


def source_keys():
    keys = {}
    for base in ('src/app', 'src/platform', 'src/cli'):
        for dirpath, _, files in os.walk(os.path.join(ROOT, base)):
            for name in files:
                if not name.endswith(('.cpp', '.h')):
                    continue
                path = os.path.join(dirpath, name)
                # Comment lines name the functions in examples: not calls.
                text = '\n'.join(line for line in open(path, encoding='utf-8').read().split('\n')
                                  if not line.lstrip().startswith('//'))
                for m in CALL_START.finditer(text):
                    for key in literals(first_argument(text, m.end())):
                        if key.startswith('##') or not key:
                            continue
                        if m.group(1) == 'tr_id' and '##' in key:
                            key = key[:key.index('##')]
                        keys.setdefault(key, os.path.relpath(path, ROOT))
    # The page's own words: t('...') / tf('...') in web/ (JavaScript string literals, ' or ").
    js_call = re.compile(r"""\b(?:t|tf)\(\s*(['"])((?:(?!\1)[^\\]|\\.)*)\1""")
    for dirpath, _, files in os.walk(os.path.join(ROOT, 'web')):
        for name in files:
            if not name.endswith('.js'):
                continue
            path = os.path.join(dirpath, name)
            for m in js_call.finditer(open(path, encoding='utf-8').read()):
                keys.setdefault(unescape('"' + m.group(2).replace('"', '\\"') + '"'), os.path.relpath(path, ROOT))
    return keys


def conversions(text):
    return [c for c in PRINTF.findall(text) if c != '%%'], sorted(BRACE.findall(text))


def check():
    cats = catalogues()
    problems = []
    en = cats.get('en', {})
    for k, v in en.items():
        if k != v:
            problems.append(f'en.json: "{k}" maps to "{v}" (English is the key itself)')
    for lang, cat in cats.items():
        if lang == 'en':
            continue
        for k in sorted(set(en) - set(cat)):
            problems.append(f'{lang}.json: no entry for "{k}"')
        for k in sorted(set(cat) - set(en)):
            problems.append(f'{lang}.json: "{k}" is not a key of en.json')
        for k, v in cat.items():
            if not isinstance(v, str) or (not v and k):
                problems.append(f'{lang}.json: "{k}" has no text')
                continue
            if '##' in v:
                problems.append(f'{lang}.json: the text of "{k}" holds "##"')
            if conversions(k) != conversions(v) and not (PRINTF.search(k) is None and conversions(k)[1] == conversions(v)[1]):
                problems.append(f'{lang}.json: "{k}" -> "{v}" changes the placeholders or conversions')
    for key, where in sorted(source_keys().items()):
        if key not in en:
            problems.append(f'{where}: "{key}" is not in en.json (scripts/i18n.py missing --add)')
    for p in problems:
        print(p)
    return 1 if problems else 0


def write(lang, cat):
    with open(os.path.join(I18N, lang + '.json'), 'w', encoding='utf-8') as f:
        json.dump(cat, f, ensure_ascii=False, indent=2, sort_keys=True)
        f.write('\n')


def missing(add):
    cats = catalogues()
    new = {k: w for k, w in source_keys().items() if k not in cats['en']}
    for k, w in sorted(new.items()):
        print(f'{w}: {json.dumps(k, ensure_ascii=False)}')
    if add and new:
        for lang, cat in cats.items():
            for k in new:
                cat[k] = k if lang == 'en' else ''
            write(lang, cat)
    return 0


if __name__ == '__main__':
    args = sys.argv[1:]
    if args == ['check']:
        sys.exit(check())
    if args[:1] == ['missing']:
        sys.exit(missing('--add' in args))
    sys.exit(__doc__)
