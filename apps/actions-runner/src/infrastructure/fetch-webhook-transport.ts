import type { WebhookTransport } from '@cmsg/actions-domain';

/** POSTs with fetch; redirects are not followed (a 3xx is a failed attempt). */
export const fetchWebhookTransport: WebhookTransport = {
  async post(url, body, headers, timeoutMs) {
    const response = await fetch(url, { method: 'POST', body, headers, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await response.arrayBuffer().catch(() => undefined);
    return response.status;
  },
};
