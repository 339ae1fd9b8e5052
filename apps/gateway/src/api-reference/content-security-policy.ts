/**
 * The Content-Security-Policy of the reference and guide pages: every script, style, image and
 * font from the gateway itself, requests only to the gateway (the "try it" calls and the
 * document), no inline script, no eval, no framing, no forms posting elsewhere.
 */
export const API_REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // Swagger UI's stylesheet draws its icons as data: SVGs.
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');
