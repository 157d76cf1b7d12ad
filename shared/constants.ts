/** The product's numbers (docs/product.md#limits), shared by server and web. */
export const API_TIMEOUT_MS = 30_000;

export const REPOSITORY_LOAD_TIMEOUT_MS = 5_000;
export const COMMITS_LOAD_TIMEOUT_MS = 10_000;
export const COMMITS_REQUESTED = 10;

export const LIST_PAGE_SIZE = 10;
export const SCROLL_TRIGGER_PX = 200;
export const SCROLL_DEBOUNCE_MS = 400;
export const SCROLL_SIMULATED_DELAY_MS = 300;
export const SCROLL_AUTOFILL_MAX = 20;
/** The list's search waits this long after the last keystroke before asking the server. */
export const SEARCH_DEBOUNCE_MS = 150;

export const MOBILE_BREAKPOINT_PX = 768;
export const CARD_DENSITIES = [2, 3, 4] as const;
export const DEFAULT_CARD_DENSITY = 3;
export const SIDEBAR_EXPANDED_PX = 240;
export const SIDEBAR_COLLAPSED_PX = 60;

export const ADMIN_USERS_DEFAULT_PAGE = 1;
export const ADMIN_USERS_DEFAULT_PER_PAGE = 20;
export const ADMIN_USERS_DASHBOARD_PER_PAGE = 50;
export const ADMIN_USERS_MAX_PER_PAGE = 100;

export const MESSAGE_CLEAR_MS = {
  repositoryUpdated: 1_000,
  saved: 3_000,
  versionAdded: 3_000,
  commentAdded: 3_000,
  profileUpdated: 3_000,
  password: 5_000,
  token: 5_000,
  webhook: 5_000,
  export: 5_000,
} as const;

export const REMEMBER_ME_HOURS = 24;
export const SESSION_HOURS = 1;
export const ACCESS_TOKEN_MINUTES = 15;
export const VERIFICATION_LINK_HOURS = 24;
export const RESET_LINK_HOURS = 1;
export const REDIRECT_AFTER_SUCCESS_MS = 3_000;
export const DEFAULT_RESET_RETRY_S = 900;
export const VERIFICATION_TOKEN_MIN_LENGTH = 10;
/**
 * Forgot-password and resend-verification answer no sooner than this after they start, whether
 * or not the address has an account (docs/security.md#b1): the work behind the answer is the
 * same for both, and this floor hides what the job queue does right after (taking the link's
 * mail), which only a real account causes.
 */
export const LINK_REQUEST_ANSWER_MS = 100;

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 20;
export const NAME_MIN = 2;

export const TAG_SUGGESTIONS_MAX = 8;
export const TAG_COLOR_PAIRS = 12;

export const AUTO_BACKUPS_KEPT = 10;

/**
 * "Send test" on notification channels, per member whichever channel (docs/product.md#rate-limits):
 * each test mails or posts at once, from the server's address.
 */
export const CHANNEL_TESTS_PER_MEMBER = 10;
export const CHANNEL_TEST_WINDOW_MS = 15 * 60 * 1000;

/** Saved views one member may keep, private and shared together (docs/product.md#saved-views). */
export const SAVED_VIEWS_PER_MEMBER_MAX = 30;

/**
 * Personal API tokens (docs/product.md#api-tokens): how many one member may keep, the longest
 * name, the expiry choices (days; `null` is "never") and each token's own rate limit.
 */
export const API_TOKENS_PER_MEMBER_MAX = 20;
export const API_TOKEN_NAME_MAX = 60;
export const API_TOKEN_EXPIRY_DAYS = [30, 90, 365] as const;
export const API_TOKEN_REQUESTS_MAX = 600;
export const API_TOKEN_REQUESTS_WINDOW_MS = 10 * 60 * 1000;

export const CONTRIBUTORS_CAP = 1000;
export const RECENTLY_UPDATED_DAYS = 30;

/** Request body limit (413 over 1 MiB). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Local and session storage keys (docs/product.md#entities). */
export const STORAGE_KEYS = {
  accessToken: 'access_token',
  refreshToken: 'refresh_token',
  user: 'user',
  rememberMe: 'remember_me',
  sidebar: 'sidebar_state',
  colorScheme: 'color_scheme',
  redirectAfterLogin: 'redirect_after_login',
} as const;
