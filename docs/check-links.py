#!/usr/bin/env python3
"""Check every markdown link to a local file or #anchor in README.md and docs/*.md."""
import re, os, sys, glob
def anchors(path):
    out=set(); seen={}; fence=False
    for line in open(path, encoding='utf-8'):
        if line.startswith('```'): fence=not fence; continue
        if not fence: out.update(re.findall(r'<a id="([\w-]+)"></a>', line))  # an explicit anchor inside a paragraph
        m=None if fence else re.match(r'^(#{1,6})\s+(.*?)\s*#*\s*$', line)
        if not m: continue
        a=m.group(2).strip().lower()
        a=re.sub(r'[^\w\- ]', '', a)   # drop punctuation (keeps letters, digits, _, -, space)
        a=a.replace(' ', '-')
        n=seen.get(a,0); seen[a]=n+1
        out.add(a if n==0 else f'{a}-{n}')
    return out
files=['README.md','CONTRIBUTING.md']+sorted(glob.glob('docs/**/*.md', recursive=True))
cache={}; bad=0; total=0
for f in files:
    text=open(f,encoding='utf-8').read()
    text=re.sub(r'```.*?```', '', text, flags=re.S)
    for m in re.finditer(r'\]\(([^)\s]+)\)', text):
        t=m.group(1)
        if re.match(r'[a-z]+:', t): continue
        total+=1
        path, _, frag = t.partition('#')
        target=os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
        if not os.path.exists(target):
            print(f'{f}: missing file {t}'); bad+=1; continue
        if frag:
            if not target.endswith('.md'):
                print(f'{f}: anchor on non-markdown {t}'); bad+=1; continue
            if target not in cache: cache[target]=anchors(target)
            if frag not in cache[target]:
                print(f'{f}: missing anchor {t}'); bad+=1
print(f'{total} local links checked in {len(files)} files, {bad} broken')
sys.exit(1 if bad else 0)
