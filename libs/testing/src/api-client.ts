export interface ApiResponse<Body = any> {
  status: number;
  headers: Headers;
  body: Body;
}

/** A thin fetch wrapper for tests and benchmarks: the public API as a client sees it. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly token: string | undefined,
    readonly slug: string,
  ) {}

  withToken(token: string | undefined): ApiClient {
    return new ApiClient(this.baseUrl, token, this.slug);
  }

  withSlug(slug: string): ApiClient {
    return new ApiClient(this.baseUrl, this.token, slug);
  }

  atGateway(baseUrl: string): ApiClient {
    return new ApiClient(baseUrl, this.token, this.slug);
  }

  post<Body = any>(pathInBusiness: string, body: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<Body>> {
    return this.request('POST', this.businessPath(pathInBusiness), JSON.stringify(body), { 'content-type': 'application/json', ...headers });
  }

  patch<Body = any>(pathInBusiness: string, body: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<Body>> {
    return this.request('PATCH', this.businessPath(pathInBusiness), JSON.stringify(body), { 'content-type': 'application/json', ...headers });
  }

  delete<Body = any>(pathInBusiness: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<Body>> {
    return this.request('DELETE', this.businessPath(pathInBusiness), body === undefined ? undefined : JSON.stringify(body), {
      'content-type': 'application/json',
      ...headers,
    });
  }

  /** A list value repeats its parameter (`tag=a&tag=b`). */
  get<Body = any>(pathInBusiness: string, query: Record<string, string | number | readonly string[] | undefined> = {}, headers: Record<string, string> = {}): Promise<ApiResponse<Body>> {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined) continue;
      for (const item of typeof value === 'object' ? value : [value]) search.append(name, String(item));
    }
    const suffix = search.size ? `?${search.toString()}` : '';
    return this.request('GET', `${this.businessPath(pathInBusiness)}${suffix}`, undefined, headers);
  }

  /** Any method and absolute path (under the base URL), raw body. */
  async request<Body = any>(method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<ApiResponse<Body>> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      body,
      headers: { ...(this.token ? { authorization: `Bearer ${this.token}` } : {}), ...headers },
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: keep the text.
    }
    return { status: response.status, headers: response.headers, body: parsed as Body };
  }

  private businessPath(pathInBusiness: string): string {
    return `/v1/${this.slug}${pathInBusiness.startsWith('/') ? '' : '/'}${pathInBusiness}`;
  }
}
