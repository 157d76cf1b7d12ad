/**
 * Full-page navigation out of the single-page app (single sign-on's provider, its sign-out page).
 * An object so tests can replace `assign` (happy-dom does not leave the page).
 */
export const leaveApp = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
