import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { findCommand, installCommand, missingNeeds, NEEDS } from './test-prereqs';

// A PATH holding every command the suite needs but mllp_send: links to the machine's own, so the check is real.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clinflow-prereqs-'));
for (const need of NEEDS) {
  if (need.command === 'mllp_send' || path.isAbsolute(need.command)) continue;
  fs.symlinkSync(findCommand(need.command)!, path.join(dir, need.command));
}
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the pre-test check', () => {
  it('finds everything the suite needs on this machine', () => {
    expect(missingNeeds()).toEqual([]);
  });

  it('names a command missing from PATH and the one apt-get command that brings it', () => {
    const missing = missingNeeds(dir);
    expect(missing.map((n) => n.command)).toEqual(['mllp_send']);
    expect(installCommand(missing, false)).toBe('sudo apt-get install -y python3-hl7');
    expect(installCommand(missing, true)).toBe('apt-get install -y python3-hl7');
  });

  it('stops `npm test` at once with that command when it cannot install (no apt-get on PATH)', async () => {
    const script = path.join(import.meta.dirname, 'test-prereqs.ts');
    const run = promisify(execFile)(process.execPath, [script], { env: { NODE_ENV: 'test', PATH: dir } });
    const failed = await run.then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain('missing mllp_send (Debian package python3-hl7)');
    expect(failed?.stderr).toMatch(/Run: {2}(sudo )?apt-get install -y python3-hl7\n/);
  });
});
