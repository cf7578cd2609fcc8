import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type ElicitRequest,
  type ElicitResult,
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type OAuthTokens,
} from '@modelcontextprotocol/client';

/**
 * An OAuth client for one MCP server, kept in memory. `authorize(url)` takes the user to the authorization
 * server's page and resolves with the `code` of the callback: open a browser and wait for the redirect in a
 * desktop app; in a test against an authorization server that approves at once, follow its redirect.
 */
export class InMemoryOAuthProvider implements OAuthClientProvider {
  private client?: OAuthClientInformationMixed;
  private saved?: OAuthTokens;
  private verifier?: string;
  private discovered?: OAuthDiscoveryState;
  /** The authorization code of the login under way, until it is redeemed. */
  code?: Promise<string>;

  constructor(
    private readonly metadata: OAuthClientMetadata,
    private readonly authorize: (url: URL) => Promise<string>,
    options: { preRegistered?: OAuthClientInformationMixed; clientMetadataUrl?: string } = {},
  ) {
    if (options.preRegistered) this.client = options.preRegistered;
    if (options.clientMetadataUrl !== undefined) this.clientMetadataUrl = options.clientMetadataUrl;
  }

  /** Where the client's metadata document is published, used as its id by servers that support that. */
  readonly clientMetadataUrl?: string;

  get redirectUrl(): string {
    const [first] = this.metadata.redirect_uris;
    if (first === undefined) throw new Error('the client metadata names no redirect URI');
    return first;
  }

  get clientMetadata(): OAuthClientMetadata {
    return this.metadata;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.client = client;
  }

  tokens(): OAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.code = this.authorize(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  // Kept with the verifier, so the code is redeemed at the authorization server the login started with.
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovered = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovered;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('no authorization in progress');
    return this.verifier;
  }
}

/** What `connectClient` needs: the server, how to log in, and who answers the server's questions. */
export type ConnectOptions = {
  url: URL;
  /** Logs the client in when the server answers 401 (omit it for a server without auth). */
  auth?: InMemoryOAuthProvider;
  /** Answers a server's `elicitation/create`: ask the user, and accept, decline or cancel. */
  elicit: (request: ElicitRequest['params']) => Promise<ElicitResult>;
};

/** A connected client, and how to finish a login the server asked for after connecting. */
export type ConnectedClient = {
  client: Client;
  /**
   * Redeem the code of a login under way (the server wanted a wider scope: a call failed with
   * `UnauthorizedError`); resolves `false` when none is. Call the tool again after it.
   */
  finishLogin: () => Promise<boolean>;
  /** Run `request`; when it fails for a login the server asked for, finish the login and run it once more. */
  withLogin: <T>(request: () => Promise<T>) => Promise<T>;
};

/**
 * Connect an SDK v2 client that a server may ask questions (elicitation, with the schema's defaults filled in
 * for fields the answer leaves out) and that logs in by itself: on a 401 it follows the server's
 * protected-resource metadata to the authorization server, gets a code, and connects again with the token.
 */
export async function connectClient({ url, auth, elicit }: ConnectOptions): Promise<ConnectedClient> {
  const client = new Client(
    { name: 'agentcall-client', version: '1.0.0' },
    { capabilities: { elicitation: { form: { applyDefaults: true } } } },
  );
  client.setRequestHandler('elicitation/create', (request) => elicit(request.params));
  let transport = new StreamableHTTPClientTransport(url, auth ? { authProvider: auth } : {});
  const finishLogin = async (): Promise<boolean> => {
    const code = auth?.code;
    if (!code) return false;
    delete auth.code;
    await transport.finishAuth(await code);
    return true;
  };
  try {
    await client.connect(transport);
  } catch (error) {
    // The login went through the browser: redeem its code, then connect again, now with a token.
    if (!(error instanceof UnauthorizedError) || !(await finishLogin())) throw error;
    transport = new StreamableHTTPClientTransport(url, { authProvider: auth! });
    await client.connect(transport);
  }
  const withLogin = async <T>(request: () => Promise<T>): Promise<T> => {
    try {
      return await request();
    } catch (error) {
      if (!(error instanceof UnauthorizedError) || !(await finishLogin())) throw error;
      return request();
    }
  };
  return { client, finishLogin, withLogin };
}
