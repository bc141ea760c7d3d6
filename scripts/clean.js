// Removes the previous build so that deleted commands do not linger in dist/ or the manifest.
import { rmSync } from 'node:fs'
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true })
rmSync(new URL('../oclif.manifest.json', import.meta.url), { force: true })
