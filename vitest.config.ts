import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // `allot/client` resolves to the TypeScript sources under test, not to the build (package.json's exports).
  ssr: { resolve: { conditions: ['allot-source', ...defaultServerConditions] } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
