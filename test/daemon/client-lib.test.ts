import { describe, expect, it } from 'vitest';
import * as viaPackage from 'allot/client';
import * as direct from '../../client/lib/index.ts';

describe("import { connect } from 'allot/client'", () => {
  it('resolves through the package exports map to the client library', () => {
    expect(viaPackage.connect).toBe(direct.connect);
    expect(typeof viaPackage.createClient).toBe('function');
    expect(new viaPackage.NoDaemon('/r').message).toMatch(/no allot daemon is running for \/r/);
  });
});
