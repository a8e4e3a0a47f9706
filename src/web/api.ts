// The login and session pages as others may use them: the console builds on their sessions,
// templates and strings; the host's HTTP adapter mounts their routes and the cookie
// authentication of REST requests.
export { chooseLang, fmt, isLang, STRINGS, type Strings } from './i18n.ts';
export { templateRenderer } from './render.ts';
export { authenticateCookie, restNonce } from './rest-cookie-auth.ts';
export { pageHeaders, parseCookies } from './page.ts';
export { registerWebRoutes } from './routes.ts';
export { checkCsrf, csrfToken, destroyUserSessions, loadSession, SESSION_COOKIE, type WebSession } from './session.ts';
export { addQueryArgs, pageUrl, PATHS, sameSiteRedirect, siteAddress, type SiteAddress } from './urls.ts';
