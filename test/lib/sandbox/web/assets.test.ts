import { describe, expect, it } from 'vitest'
import { FAVICON_SVG, PANEL_CSS, PANEL_JS } from '../../../../src/lib/sandbox/web/assets.js'

// The panel is served under a Content-Security-Policy that allows only its own files, and works offline.
describe('the panel’s static files', () => {
  it('load nothing from elsewhere: no CDN, no font, no remote image', () => {
    for (const text of [PANEL_JS, PANEL_CSS]) {
      expect(text).not.toMatch(/https?:\/\//)
      expect(text).not.toMatch(/@import|url\(/)
    }
    expect(FAVICON_SVG.replace('http://www.w3.org/2000/svg', '')).not.toMatch(/https?:\/\//)
  })

  it('the script only talks to the panel itself: its page again and its own event stream', () => {
    expect(PANEL_JS).toContain("new EventSource('/panel/events')")
    expect(PANEL_JS).toContain("credentials: 'same-origin'")
    expect(PANEL_JS).not.toMatch(/eval\(|new Function|document\.write/)
    // The one HTML it inserts is the panel's own fragment, fetched from the same page.
    expect(PANEL_JS.match(/innerHTML/g)).toEqual(['innerHTML'])
    expect(PANEL_JS).toContain('main.innerHTML = html')
  })
})
