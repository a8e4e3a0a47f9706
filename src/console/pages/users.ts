// The user pages the API links to: profile.php (one's own profile), user-edit.php?user_id=
// (another user's, for those who may edit users: the same plus role and account status) and
// users.php (the list). Application passwords live in the profile (the page at
// /cms-admin/application-passwords.php now sends people here). Every change goes through the
// same functions as the CLI (src/auth) and is recorded in the activity log.
import type { FastifyReply } from 'fastify';
import { chunkPassword, createAppPassword, listAppPasswords, revokeAppPassword } from '../../auth/app-passwords.ts';
import { ROLES } from '../../auth/roles.ts';
import { setUserPassword, setUserRole, setUserStatus, updateUserProfile } from '../../auth/users.ts';
import { findUserById, listUsers, type UserRow } from '../../auth/user-rows.ts';
import { verifyUserPassword } from '../../auth/login-password.ts';
import { RestError } from '../../rest/types.ts';
import { utcToZone } from '../../site/time.ts';
import { fmt, destroyUserSessions } from '../../web/api.ts';
import { avatarOf } from '../avatar.ts';
import type { ConsoleContext, ConsolePage, Notice } from '../context.ts';
import { text } from '../context.ts';
import type { ConsoleStringKey } from '../i18n.ts';

const PROFILE = '/cms-admin/profile.php';
const USER_EDIT = '/cms-admin/user-edit.php';
const USERS = '/cms-admin/users.php';

/** Messages of the auth functions' errors in the console's language. */
const ERROR_TEXTS: Record<string, ConsoleStringKey> = {
  invalid_email: 'errInvalidEmail',
  existing_user_email: 'errEmailTaken',
  empty_display_name: 'errEmptyName',
  invalid_display_name: 'errNameTooLong',
  password_too_short: 'passwordTooShort',
  invalid_locale: 'errInvalidLocale',
  invalid_role: 'errInvalidRole',
  application_password_empty_name: 'emptyName',
  application_password_name_too_long: 'errNameTooLong',
  application_password_duplicate_name: 'duplicateName',
};

function problem(ctx: ConsoleContext, err: unknown): Notice {
  if (!(err instanceof RestError) || err.status >= 500) throw err;
  const key = ERROR_TEXTS[err.code];
  return { kind: 'error', text: key ? ctx.t[key] : err.message };
}

/** Where a form of the page for `user` is sent. */
function pageOf(ctx: ConsoleContext, user: UserRow): string {
  return user.id === ctx.user.id ? ctx.url(PROFILE) : ctx.url(USER_EDIT, { user_id: String(user.id) });
}

interface Shown {
  notices?: Notice[];
  /** A new application password, shown once. */
  created?: { name: string; password: string };
  invalid?: string[];
  status?: number;
}

async function showUser(ctx: ConsoleContext, user: UserRow, shown: Shown = {}): Promise<FastifyReply> {
  const { t } = ctx;
  const own = user.id === ctx.user.id;
  const zone = ctx.app.options.timeZone();
  const local = (iso: string) => utcToZone(iso.replace('T', ' ').slice(0, 19), zone);
  const passwords = (await listAppPasswords(ctx.app, user.id)).map((p) => ({
    uuid: p.uuid,
    name: p.name,
    appId: p.app_id || t.none,
    created: local(p.created),
    lastUsed: p.last_used ? local(p.last_used) : t.never,
    lastIp: p.last_ip ?? t.none,
    revokeLabel: fmt(t.revokeLabel, { name: p.name }),
  }));
  const notices = [...(shown.notices ?? [])];
  const done = text(ctx.query.done);
  const doneTexts: Record<string, ConsoleStringKey> = {
    profile: 'profileSaved',
    password: 'passwordChanged',
    role: 'roleSaved',
    disabled: 'userDisabled',
    enabled: 'userEnabled',
    revoked: 'revoked',
  };
  if (doneTexts[done]) notices.push({ kind: 'success', text: t[doneTexts[done]] });
  if (ctx.query.rejected === '1') notices.push({ kind: 'info', text: t.rejected });
  return ctx.html(
    'profile.twig',
    own ? t.profileTitle : t.userEditTitle,
    {
      heading: own ? t.profileTitle : `${t.userEditTitle}: ${user.display_name}`,
      notices,
      own,
      formAction: pageOf(ctx, user),
      user: {
        id: user.id,
        login: user.login,
        displayName: user.display_name,
        email: user.email,
        locale: user.locale,
        role: user.role,
        active: user.status === 'active',
        avatar: avatarOf(user.display_name, user.id),
      },
      invalid: shown.invalid ?? [],
      locales: [
        { value: '', label: t.languageAuto },
        { value: 'en', label: 'English' },
        { value: 'de', label: 'Deutsch' },
      ],
      roles: ROLES.map((r) => ({ value: r, label: t[`role_${r}`] })),
      roleLabel: t[`role_${user.role}` as ConsoleStringKey] ?? user.role,
      canManage: !own && ctx.user.can('promote_users'),
      statusText: fmt(t.accountStatus, {
        status: user.status === 'active' ? t.statusActive.toLowerCase() : t.statusDisabled.toLowerCase(),
      }),
      passwords,
      passwordsHeading: own ? t.passwordsTitle : fmt(t.otherUsersPasswords, { name: user.display_name }),
      timesIn: fmt(t.timesIn, { zone }),
      created: shown.created
        ? {
            heading: fmt(t.appPasswordCreated, { name: shown.created.name }),
            password: chunkPassword(shown.created.password),
          }
        : null,
    },
    shown.status ?? 200,
  );
}

/** The form posts of a profile page (own or another user's). */
async function act(ctx: ConsoleContext, user: UserRow): Promise<FastifyReply> {
  if (!(await ctx.csrfOk())) return ctx.csrfFailed();
  const own = user.id === ctx.user.id;
  const action = text(ctx.body.action);
  const back = (done: string) =>
    ctx.redirect(`${pageOf(ctx, user)}${pageOf(ctx, user).includes('?') ? '&' : '?'}done=${done}`);
  try {
    switch (action) {
      case 'language': {
        // The language switch of the layout: one's own choice, then back where one was.
        await updateUserProfile(ctx.app, ctx.user.id, { locale: text(ctx.body.locale) }, ctx.origin);
        return ctx.redirect(ctx.returnTo(ctx.body.return_to, ctx.url('/cms-admin/')));
      }
      case 'profile':
        await updateUserProfile(
          ctx.app,
          user.id,
          { displayName: text(ctx.body.display_name), email: text(ctx.body.email), locale: text(ctx.body.locale) },
          ctx.origin,
        );
        return back('profile');
      case 'password': {
        const password = text(ctx.body.new_password);
        if (own && !(await verifyUserPassword(user, text(ctx.body.current_password)))) {
          return showUser(ctx, user, {
            notices: [{ kind: 'error', text: ctx.t.passwordWrong }],
            invalid: ['current_password'],
            status: 400,
          });
        }
        if (password !== text(ctx.body.confirm_password)) {
          return showUser(ctx, user, {
            notices: [{ kind: 'error', text: ctx.t.passwordMismatch }],
            invalid: ['confirm_password'],
            status: 400,
          });
        }
        await setUserPassword(ctx.app, user.id, password, ctx.origin);
        // As the reference: a new password logs the user out everywhere else.
        await destroyUserSessions(ctx.app, user.id, own ? ctx.session.idHash : undefined);
        return back('password');
      }
      case 'role':
        if (own || !ctx.user.can('promote_users')) return ctx.message(403, ctx.t.forbiddenTitle, ctx.t.notOnSelf);
        await setUserRole(ctx.app, user.id, text(ctx.body.role), ctx.origin);
        return back('role');
      case 'disable':
      case 'enable':
        if (own || !ctx.user.can('promote_users')) return ctx.message(403, ctx.t.forbiddenTitle, ctx.t.notOnSelf);
        await setUserStatus(ctx.app, user.id, action === 'disable' ? 'disabled' : 'active', ctx.origin);
        return back(action === 'disable' ? 'disabled' : 'enabled');
      case 'create_app_password': {
        const created = await createAppPassword(ctx.app, user.id, { name: text(ctx.body.app_name) }, ctx.origin);
        return showUser(ctx, user, { created: { name: created.name, password: created.password }, status: 201 });
      }
      case 'revoke_app_password':
        await revokeAppPassword(ctx.app, user.id, text(ctx.body.uuid), ctx.origin);
        return back('revoked');
      default:
        return showUser(ctx, user, { notices: [{ kind: 'error', text: ctx.t.badAction }], status: 400 });
    }
  } catch (err) {
    if (err instanceof RestError && err.status === 404)
      return showUser(ctx, user, { notices: [{ kind: 'error', text: ctx.t.notFound }], status: 404 });
    const notice = problem(ctx, err);
    const code = (err as RestError).code;
    const field = code.startsWith('application_password_')
      ? 'app_name'
      : code.includes('email')
        ? 'email'
        : code.includes('display_name')
          ? 'display_name'
          : code.includes('password_')
            ? 'new_password'
            : '';
    return showUser(ctx, user, { notices: [notice], invalid: field ? [field] : [], status: (err as RestError).status });
  }
}

export const profilePage: ConsolePage = {
  path: PROFILE,
  capability: null,
  title: 'profileTitle',
  navOrder: 90,
  async handle(ctx) {
    const me = (await findUserById(ctx.app, ctx.user.id))!;
    return ctx.isPost ? act(ctx, me) : showUser(ctx, me);
  },
};

export const userEditPage: ConsolePage = {
  path: USER_EDIT,
  capability: 'edit_users',
  title: 'userEditTitle',
  async handle(ctx) {
    const id = text(ctx.query.user_id);
    const user = /^\d{1,10}$/.test(id) ? await findUserById(ctx.app, Number(id)) : undefined;
    if (!user) return ctx.message(404, ctx.t.userEditTitle, ctx.t.userNotFound);
    // One's own user-edit page is the profile, as in the reference.
    if (user.id === ctx.user.id && !ctx.isPost) return ctx.redirect(ctx.url(PROFILE), 302);
    return ctx.isPost ? act(ctx, user) : showUser(ctx, user);
  },
};

export const usersPage: ConsolePage = {
  path: USERS,
  capability: 'list_users',
  title: 'usersTitle',
  navOrder: 80,
  async handle(ctx) {
    const { t } = ctx;
    const users = (await listUsers(ctx.app)).map((u) => ({
      login: u.login,
      displayName: u.display_name,
      email: u.email,
      role: t[`role_${u.role}` as ConsoleStringKey] ?? u.role,
      active: u.status === 'active',
      avatar: avatarOf(u.display_name, u.id),
      url: ctx.user.can('edit_users')
        ? u.id === ctx.user.id
          ? ctx.url(PROFILE)
          : ctx.url(USER_EDIT, { user_id: String(u.id) })
        : '',
      editLabel: fmt(t.editUser, { name: u.display_name }),
    }));
    return ctx.html('users.twig', t.usersTitle, { users });
  },
};

export const userPages: ConsolePage[] = [usersPage, profilePage, userEditPage];
