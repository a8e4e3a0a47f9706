// Texts of the site's own HTML pages in English and German, and the choice of language for a
// request: the `lang` query parameter, else the browser's Accept-Language, else English.
import type { Lang } from '../rest/types.ts';

const en = {
  // layout
  skipToContent: 'Skip to content',
  language: 'Language',
  loggedInAs: 'Logged in as {user}',
  logOut: 'Log Out',
  passwordsNav: 'Application Passwords',
  // login
  loginTitle: 'Log In',
  loginHeading: 'Log in to {site}',
  loginToContinue: 'Please log in to continue.',
  usernameLabel: 'Username or Email Address',
  passwordLabel: 'Password',
  loginSubmit: 'Log In',
  loginFailed: 'Unknown username or incorrect password.',
  loginEmpty: 'Please enter your username and password.',
  loginThrottled: 'Too many failed login attempts. Please try again in {seconds} seconds.',
  loggedOut: 'You are now logged out.',
  // set a password with a one-time link (content-site user reset-password)
  rpTitle: 'Set Password',
  rpHeading: 'Set a password for {user}',
  rpIntro: 'Enter your new password below, twice. It must be at least 8 characters long.',
  rpUsername: 'Username',
  rpPassword: 'New password',
  rpConfirm: 'Confirm new password',
  rpSubmit: 'Save Password',
  rpInvalid: 'Your password reset link appears to be invalid. Ask an administrator for a new link.',
  rpExpired: 'Your password reset link has expired. Ask an administrator for a new link.',
  rpMismatch: 'The passwords do not match.',
  rpTooShort: 'The password must be at least 8 characters long.',
  rpDone: 'Your password has been reset. You can now log in with it.',
  // authorize
  authorizeTitle: 'Authorize Application',
  authorizeHeading: 'An application would like to connect to your account.',
  authorizeNamed:
    'Would you like to give the application called {app} access to your account? You should only do this if you trust the app in question.',
  authorizeGeneric:
    'Would you like to give this application access to your account? You should only do this if you trust the app in question.',
  authorizeActingAs:
    'The application will act as {user}: it can do everything this account can do on the site, until you revoke its password.',
  appIdLabel: 'Application ID',
  newNameLabel: 'New Application Password Name',
  newNameHelp: 'A name that helps you recognise the application later in your list of application passwords.',
  approve: 'Yes, I approve of this connection',
  reject: 'No, I do not approve of this connection',
  approveSendsTo: 'You will be sent to {url}',
  approveShowsPassword: 'You will be given a password to manually enter into the application in question.',
  rejectSendsTo: 'You will be sent to {url}',
  rejectReturns: 'You will be returned to your list of application passwords.',
  requestNotAllowed: 'The Authorize Application request is not allowed.',
  requestProblems: 'Please correct the following problems in the address the application sent you to:',
  goBack: 'Go back',
  // parameter problems
  invalid_redirect_url_format: 'Invalid URL format.',
  invalid_redirect_scheme: 'The URL must be served over a secure connection.',
  invalid_app_id: 'The application ID must be a UUID.',
  missing_app_name: 'An application name is required, unless an application ID (app_id) is given.',
  app_name_too_long: 'The application name may not be longer than {max} characters.',
  invalid_param_type: 'The parameter must be given once, as text.',
  // created
  createdTitle: 'Application Password Created',
  createdHeading: 'Your new password for {app} is:',
  createdFieldLabel: 'New application password',
  createdSave: 'Be sure to save this in a safe location. You will not be able to retrieve it.',
  createdCopy:
    'Select the password in the field above and copy it (Ctrl+C, or ⌘+C on a Mac), then paste it into the application together with your username {login}. The spaces are optional.',
  createdBack: 'Go to your application passwords',
  // passwords
  passwordsTitle: 'Application Passwords',
  passwordsIntro:
    'Application passwords let applications use the site’s REST API on your behalf. They cannot be used to log in to these pages.',
  passwordsEmpty: 'You have no application passwords yet.',
  passwordsCaption: 'Your application passwords',
  colName: 'Name',
  colAppId: 'App ID',
  colCreated: 'Created',
  colLastUsed: 'Last Used',
  colLastIp: 'Last IP',
  colActions: 'Actions',
  never: 'Never',
  none: '—',
  revoke: 'Revoke',
  revokeLabel: 'Revoke “{name}”',
  revoked: 'The application password has been revoked.',
  emptyName: 'An application name is required to create an application password.',
  duplicateName: 'Each application name should be unique.',
  unknownAction: 'Please choose whether to approve or reject the connection.',
  notFound: 'Application password not found.',
  rejected: 'You did not approve the connection; no application password was created.',
  timesIn: 'times in {zone}',
  // errors
  csrfTitle: 'Security check failed',
  csrfText:
    'The form has expired or was not sent from this site. Go back, reload the page and try again. If this keeps happening, make sure your browser accepts cookies from this site.',
  errorTitle: 'Error',
  errorText: 'There has been an error on the site. Please try again later.',
} as const;

export type StringKey = keyof typeof en;
export type Strings = Record<StringKey, string>;

const de: Strings = {
  skipToContent: 'Zum Inhalt springen',
  language: 'Sprache',
  loggedInAs: 'Angemeldet als {user}',
  logOut: 'Abmelden',
  passwordsNav: 'Anwendungspasswörter',
  loginTitle: 'Anmelden',
  loginHeading: 'Bei {site} anmelden',
  loginToContinue: 'Bitte melde dich an, um fortzufahren.',
  usernameLabel: 'Benutzername oder E-Mail-Adresse',
  passwordLabel: 'Passwort',
  loginSubmit: 'Anmelden',
  loginFailed: 'Unbekannter Benutzername oder falsches Passwort.',
  loginEmpty: 'Bitte gib deinen Benutzernamen und dein Passwort ein.',
  loginThrottled: 'Zu viele fehlgeschlagene Anmeldeversuche. Bitte versuche es in {seconds} Sekunden erneut.',
  loggedOut: 'Du bist jetzt abgemeldet.',
  rpTitle: 'Passwort festlegen',
  rpHeading: 'Passwort für {user} festlegen',
  rpIntro: 'Gib unten zweimal dein neues Passwort ein. Es muss mindestens 8 Zeichen lang sein.',
  rpUsername: 'Benutzername',
  rpPassword: 'Neues Passwort',
  rpConfirm: 'Neues Passwort bestätigen',
  rpSubmit: 'Passwort speichern',
  rpInvalid:
    'Dein Link zum Zurücksetzen des Passworts scheint ungültig zu sein. Bitte eine Administratorin oder einen Administrator um einen neuen Link.',
  rpExpired:
    'Dein Link zum Zurücksetzen des Passworts ist abgelaufen. Bitte eine Administratorin oder einen Administrator um einen neuen Link.',
  rpMismatch: 'Die Passwörter stimmen nicht überein.',
  rpTooShort: 'Das Passwort muss mindestens 8 Zeichen lang sein.',
  rpDone: 'Dein Passwort wurde zurückgesetzt. Du kannst dich jetzt damit anmelden.',
  authorizeTitle: 'Anwendung autorisieren',
  authorizeHeading: 'Eine Anwendung möchte sich mit deinem Konto verbinden.',
  authorizeNamed:
    'Möchtest du der Anwendung namens {app} Zugriff auf dein Konto geben? Tu dies nur, wenn du der betreffenden Anwendung vertraust.',
  authorizeGeneric:
    'Möchtest du dieser Anwendung Zugriff auf dein Konto geben? Tu dies nur, wenn du der betreffenden Anwendung vertraust.',
  authorizeActingAs:
    'Die Anwendung handelt als {user}: Sie kann alles tun, was dieses Konto auf der Website tun kann, bis du ihr Passwort widerrufst.',
  appIdLabel: 'Anwendungs-ID',
  newNameLabel: 'Name des neuen Anwendungspassworts',
  newNameHelp: 'Ein Name, an dem du die Anwendung später in der Liste deiner Anwendungspasswörter wiedererkennst.',
  approve: 'Ja, ich stimme dieser Verbindung zu',
  reject: 'Nein, ich stimme dieser Verbindung nicht zu',
  approveSendsTo: 'Du wirst weitergeleitet zu {url}',
  approveShowsPassword: 'Du erhältst ein Passwort, das du manuell in die betreffende Anwendung eingeben musst.',
  rejectSendsTo: 'Du wirst weitergeleitet zu {url}',
  rejectReturns: 'Du kehrst zur Liste deiner Anwendungspasswörter zurück.',
  requestNotAllowed: 'Die Anfrage zum Autorisieren der Anwendung ist nicht erlaubt.',
  requestProblems: 'Folgende Probleme in der Adresse, zu der dich die Anwendung geschickt hat, müssen behoben werden:',
  goBack: 'Zurück',
  invalid_redirect_url_format: 'Ungültiges URL-Format.',
  invalid_redirect_scheme: 'Die URL muss über eine sichere Verbindung bereitgestellt werden.',
  invalid_app_id: 'Die Anwendungs-ID muss eine UUID sein.',
  missing_app_name: 'Ein Anwendungsname ist erforderlich, außer wenn eine Anwendungs-ID (app_id) angegeben ist.',
  app_name_too_long: 'Der Anwendungsname darf nicht länger als {max} Zeichen sein.',
  invalid_param_type: 'Der Parameter muss einmal und als Text angegeben werden.',
  createdTitle: 'Anwendungspasswort erstellt',
  createdHeading: 'Dein neues Passwort für {app} lautet:',
  createdFieldLabel: 'Neues Anwendungspasswort',
  createdSave: 'Bewahre es an einem sicheren Ort auf. Du wirst es nicht erneut abrufen können.',
  createdCopy:
    'Markiere das Passwort im Feld oben und kopiere es (Strg+C, auf dem Mac ⌘+C), und füge es dann zusammen mit deinem Benutzernamen {login} in die Anwendung ein. Die Leerzeichen sind optional.',
  createdBack: 'Zu deinen Anwendungspasswörtern',
  passwordsTitle: 'Anwendungspasswörter',
  passwordsIntro:
    'Mit Anwendungspasswörtern können Anwendungen die REST-API der Website in deinem Namen nutzen. Zum Anmelden auf diesen Seiten taugen sie nicht.',
  passwordsEmpty: 'Du hast noch keine Anwendungspasswörter.',
  passwordsCaption: 'Deine Anwendungspasswörter',
  colName: 'Name',
  colAppId: 'App-ID',
  colCreated: 'Erstellt',
  colLastUsed: 'Zuletzt verwendet',
  colLastIp: 'Letzte IP',
  colActions: 'Aktionen',
  never: 'Nie',
  none: '—',
  revoke: 'Widerrufen',
  revokeLabel: '„{name}“ widerrufen',
  revoked: 'Das Anwendungspasswort wurde widerrufen.',
  emptyName: 'Zum Erstellen eines Anwendungspassworts ist ein Anwendungsname erforderlich.',
  duplicateName: 'Jeder Anwendungsname sollte eindeutig sein.',
  unknownAction: 'Bitte wähle, ob du der Verbindung zustimmst oder sie ablehnst.',
  notFound: 'Anwendungspasswort nicht gefunden.',
  rejected: 'Du hast der Verbindung nicht zugestimmt; es wurde kein Anwendungspasswort erstellt.',
  timesIn: 'Zeiten in {zone}',
  csrfTitle: 'Sicherheitsprüfung fehlgeschlagen',
  csrfText:
    'Das Formular ist abgelaufen oder wurde nicht von dieser Website gesendet. Geh zurück, lade die Seite neu und versuche es erneut. Wenn das wiederholt passiert, prüfe, ob dein Browser Cookies dieser Website annimmt.',
  errorTitle: 'Fehler',
  errorText: 'Auf der Website ist ein Fehler aufgetreten. Bitte versuche es später erneut.',
};

export const STRINGS: Record<Lang, Strings> = { en, de };

/** A text with `{name}` placeholders filled in (plain text; the templates escape it). */
export function fmt(text: string, vars: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}

/**
 * A text cut at its placeholders, for templates that wrap the values in markup (e.g.
 * `<strong>`): every segment stays text and is escaped by the template.
 */
export interface Segment {
  text: string;
  /** The name of the placeholder this segment fills, or '' for literal text. */
  slot: string;
}

export function segments(text: string, vars: Record<string, string>): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const m of text.matchAll(/\{(\w+)\}/g)) {
    if (!(m[1]! in vars)) continue;
    if (m.index > last) out.push({ text: text.slice(last, m.index), slot: '' });
    out.push({ text: vars[m[1]!]!, slot: m[1]! });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last), slot: '' });
  return out;
}

export function isLang(value: unknown): value is Lang {
  return value === 'en' || value === 'de';
}

/** The best of en/de for an Accept-Language header (q-values honoured), or null. */
export function langFromAcceptLanguage(header: string | undefined): Lang | null {
  if (!header) return null;
  let best: { lang: Lang; q: number; index: number } | null = null;
  header.split(',').forEach((part, index) => {
    const [tag, ...params] = part.trim().split(';');
    const primary = tag!.trim().toLowerCase().split('-')[0];
    if (!isLang(primary)) return;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) q = Number(m[1]);
    }
    if (!Number.isFinite(q) || q <= 0) return;
    if (!best || q > best.q) best = { lang: primary, q, index };
  });
  return (best as { lang: Lang } | null)?.lang ?? null;
}

export function chooseLang(queryLang: unknown, acceptLanguage: string | undefined): Lang {
  if (isLang(queryLang)) return queryLang;
  return langFromAcceptLanguage(acceptLanguage) ?? 'en';
}
