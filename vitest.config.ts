import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Every test gets its own config dir and never reaches the network (see test/setup.ts).
    setupFiles: ['test/setup.ts'],
    pool: 'forks',
    restoreMocks: true,
  },
})
