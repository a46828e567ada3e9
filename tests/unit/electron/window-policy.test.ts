// The desktop window's URL policy: a packaged app never loads a URL from the environment;
// only the app's own page may navigate, frame or call the API; links open only over https.
import { describe, expect, test } from 'vitest';
import { externalLink, isOwnPage, rendererUrl } from '../../../src/main/window-policy.ts';

const index = '/opt/Mekong/resources/app/out/renderer/index.html';

describe('window policy', () => {
  test('the dev server URL is honoured only unpackaged and only on loopback http', () => {
    expect(rendererUrl(index, 'http://localhost:5173/', false)).toBe('http://localhost:5173/');
    expect(rendererUrl(index, 'http://127.0.0.1:5173/', false)).toBe('http://127.0.0.1:5173/');
    expect(rendererUrl(index, 'http://localhost:5173/', true)).toBe(`file://${index}`);
    expect(rendererUrl(index, 'https://evil.example/', false)).toBe(`file://${index}`);
    expect(rendererUrl(index, 'http://192.168.1.5:5173/', false)).toBe(`file://${index}`);
    expect(rendererUrl(index, 'not a url', false)).toBe(`file://${index}`);
    expect(rendererUrl(index, undefined, false)).toBe(`file://${index}`);
  });

  test('own page: the same file, or the same origin as the dev server', () => {
    const app = `file://${index}`;
    expect(isOwnPage(`${app}#/editor`, app)).toBe(true);
    expect(isOwnPage('file:///etc/passwd', app)).toBe(false);
    expect(isOwnPage('https://evil.example/', app)).toBe(false);
    expect(isOwnPage('http://localhost:5173/x', 'http://localhost:5173/')).toBe(true);
    expect(isOwnPage('http://localhost:5174/', 'http://localhost:5173/')).toBe(false);
    expect(isOwnPage('', app)).toBe(false);
  });

  test('external links: https without credentials only', () => {
    expect(externalLink('https://github.com/x')?.href).toBe('https://github.com/x');
    expect(externalLink('http://example.com/')).toBeNull();
    expect(externalLink('file:///etc/passwd')).toBeNull();
    expect(externalLink('javascript:alert(1)')).toBeNull();
    expect(externalLink('https://user:pw@example.com/')).toBeNull();
    expect(externalLink('smb://host/share')).toBeNull();
  });
});
