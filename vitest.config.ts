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
    // A test that needs a program the machine lacks (zsh, fish, Chromium) is skipped outside CI;
    // this reporter lists them once at the end with their install line (test/helpers/system-tools.ts).
    reporters: ['default', './test/helpers/needs-reporter.ts'],
  },
})
