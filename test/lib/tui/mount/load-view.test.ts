import { afterEach, describe, expect, it } from 'vitest'
import { loadView } from '../../../../src/lib/tui/mount/load-view.js'

const saved = process.env.NODE_ENV
afterEach(() => {
  if (saved === undefined) delete process.env.NODE_ENV
  else process.env.NODE_ENV = saved
})

describe('loadView', () => {
  it('loads the view with React’s production build unless the user chose otherwise', async () => {
    delete process.env.NODE_ENV
    let during: string | undefined
    expect(await loadView(async () => ((during = process.env.NODE_ENV), 'view'))).toBe('view')
    expect(during).toBe('production')
  })

  it('leaves a NODE_ENV the user set alone', async () => {
    process.env.NODE_ENV = 'development'
    await loadView(async () => undefined)
    expect(process.env.NODE_ENV).toBe('development')
  })
})
