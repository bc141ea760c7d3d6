import { describe, expect, it } from 'vitest'
import { esc, form, html, layout, Safe, status } from '../../../../src/lib/sandbox/web/html.js'

describe('the panel’s HTML', () => {
  it('escapes every outside string put in a page, and keeps only markup made here', () => {
    const description = `<script>alert("x")</script> & 'quotes'`
    expect(esc(description)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;')
    expect(html`<td>${description}</td>`.value).toBe(`<td>${esc(description)}</td>`)
    expect(html`<p>${new Safe('<b>ok</b>')}${['<i>', 2]}${undefined}${false}</p>`.value).toBe('<p><b>ok</b>&lt;i&gt;2</p>')
  })

  it('colours a status by what it means and lets a narrow screen break it only after an underscore', () => {
    expect(status('settled').value).toBe('<span class="status s-ok">settled</span>')
    expect(status('awaiting_payment').value).toBe('<span class="status s-warn">awaiting_<wbr>payment</span>')
    expect(status('<new>').value).toBe('<span class="status ">&lt;new&gt;</span>')
  })

  it('every POST form carries its CSRF token, with hidden fields escaped', () => {
    const f = form('/panel/charges/abc/pay', 'tok"en', 'Pay', { env: 'te"st' }).value
    expect(f).toContain('<input type="hidden" name="_csrf" value="tok&quot;en">')
    expect(f).toContain('<input type="hidden" name="env" value="te&quot;st">')
    expect(f.startsWith('<form method="post" action="/panel/charges/abc/pay">')).toBe(true)
  })

  it('a page names its environment, marks the current page, offers the other environment, and goes live only when asked', () => {
    const page = layout({ title: 'Charges', current: 'charges', env: 'live', live: true }, html`<p>body</p>`)
    expect(page.startsWith('<!doctype html><html lang="en">')).toBe(true)
    expect(page).toContain('<span class="env live">LIVE</span>')
    expect(page).toContain('<a href="/panel/charges?env=live" aria-current="page">Charges</a>')
    expect(page).toContain('<a href="/panel/charges?env=test">Switch to test</a>')
    expect(page).toContain('<main id="main" data-live><p>body</p></main>')
    expect(layout({ title: 'Keys', current: 'keys', env: 'test' }, html``)).not.toContain('data-live')
  })
})
