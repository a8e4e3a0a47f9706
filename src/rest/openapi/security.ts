// The permissions of the OpenAPI documents: each endpoint's permission as security requirements,
// as data (`x-permission`) and as the sentence its operation's description gives.
import type { Lang, Permission } from '../types.ts';
import { l, pick } from '../define.ts';
import type { Json } from './json-schema.ts';

const T = {
  public: l(
    'Public: no credentials needed (credentials may widen what is returned).',
    'Öffentlich: keine Anmeldung nötig (mit Anmeldung kann die Antwort mehr enthalten).',
  ),
  loggedIn: l('Any logged-in user.', 'Jeder angemeldete Benutzer.'),
  capability: l('Needs the capability `%s`.', 'Erfordert die Berechtigung `%s`.'),
  custom: l('Permission: %s', 'Berechtigung: %s'),
};

/**
 * The security requirement of a permission. OpenAPI 3.1 lets non-OAuth requirements name
 * roles: we name the capability the route needs (also the custom checks' bypass capability).
 */
export function security(permission: Permission): Json[] {
  if (permission.kind === 'public') return [{}, { applicationPassword: [] }, { sessionCookie: [], restNonce: [] }];
  const roles =
    permission.kind === 'cap'
      ? [permission.cap]
      : permission.kind === 'custom' && permission.cap
        ? [permission.cap]
        : [];
  return [{ applicationPassword: roles }, { sessionCookie: roles, restNonce: roles }];
}

/** The permission as data (`x-permission`): its kind and capability, a custom check's description. */
export function permissionData(permission: Permission, lang: Lang): Json {
  if (permission.kind !== 'custom') return { ...permission };
  return { kind: 'custom', label: pick(permission.label, lang), ...(permission.cap ? { cap: permission.cap } : {}) };
}

export function permissionText(permission: Permission, lang: Lang): string {
  switch (permission.kind) {
    case 'public':
      return T.public[lang];
    case 'logged_in':
      return T.loggedIn[lang];
    case 'cap':
      return T.capability[lang].replace('%s', permission.cap);
    case 'custom':
      return T.custom[lang].replace('%s', pick(permission.label, lang));
  }
}
