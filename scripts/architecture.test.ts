import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: { name: string }[];
}

/** The rules of a dependency-cruiser config over `dir` (src/ unless told), as dependency-cruiser reports their violations. */
function violations(config = '.dependency-cruiser.cjs', dir = 'src'): string[] {
  const bin = path.join(root, 'node_modules', '.bin', 'depcruise');
  let out: string;
  try {
    out = execFileSync(bin, [dir, '--config', config, '--output-type', 'json'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
  } catch (e) {
    // it exits non-zero when a rule is broken; the report is still on stdout
    out = (e as { stdout: string }).stdout;
  }
  const report = JSON.parse(out) as { summary: { violations: Violation[] } };
  return report.summary.violations.map((v) =>
    v.rule.name === 'no-circular' ? `no-circular: ${[v.from, ...(v.cycle ?? []).map((c) => c.name)].join(' → ')}` : `${v.rule.name}: ${v.from} → ${v.to}`,
  );
}

describe('the import graph', () => {
  // issue 29, items 4 and 5: executions, agents and tools reach one another through the ServiceHost handed to them
  // (services/compose.ts), so no loop is left to tolerate
  it('has no import running upward and no loop across files', { timeout: 120_000 }, () => {
    expect(violations()).toEqual([]);
  });

  it('counts a loop of value or dynamic imports, and not one that a type-only import closes', { timeout: 120_000 }, () => {
    const fixtures = 'scripts/fixtures/import-loops';
    const loops = violations('.dependency-cruiser.cjs', fixtures).map((v) => v.replaceAll(`${fixtures}/`, ''));
    expect(loops.map((l) => l.split(': ')[1]!.split('/')[0])).toEqual(['dynamic', 'value']);
    expect(loops).toContain('no-circular: value/a.ts → value/b.ts → value/a.ts');
  });
});

describe('what the browser loads', () => {
  // issue 29, item 2: the node registry is one list of descriptors the browser imports; how nodes run is joined to it
  // on the server (implementations.ts), so the palette and the editor never bundle sandboxes, drivers or sockets
  it('the UI and the node registry reach no node execute code through imports that survive compilation', { timeout: 120_000 }, () => {
    expect(violations('.dependency-cruiser.client.cjs')).toEqual([]);
  });
});

describe('casts', () => {
  // issue 29, item 10: a cast that silences the type checker says why the types cannot express it
  it('every `as never` / `as unknown as` in product code has a comment saying why, on its line or just above', () => {
    const files = execFileSync('git', ['ls-files', 'src/*.ts', 'src/*.tsx'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f && !f.includes('.test.'));
    const unexplained: string[] = [];
    for (const f of files) {
      const lines = readFileSync(path.join(root, f), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (!/\bas never\b|\bas unknown as\b/.test(line) || line.includes('//')) return;
        const above = lines.slice(Math.max(0, i - 4), i);
        if (!above.some((l) => /^\s*(\/\/|\*|\/\*)/.test(l))) unexplained.push(`${f}:${i + 1}`);
      });
    }
    expect(unexplained).toEqual([]);
  });
});
