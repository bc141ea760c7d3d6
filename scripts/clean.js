// Removes the previous build so that deleted commands do not linger in dist/, the manifest or the bundle.
// dist-bin/ (the single executable) stays: it is built on its own, by npm run build:binary.
import { rmSync } from 'node:fs'
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true })
rmSync(new URL('../oclif.manifest.json', import.meta.url), { force: true })
// The bundle is made from dist/ (npm run build:bundle); a stale one must not outlive it.
rmSync(new URL('../dist-bundle', import.meta.url), { recursive: true, force: true })
rmSync(new URL('../dist-sea', import.meta.url), { recursive: true, force: true })
