// SSA's capabilities mapped onto the site's roles (conventions: manage_options for sched/v1).
//
//   ssa_manage_site_settings        → manage_options  (site settings, support tools)
//   ssa_manage_appointments         → manage_options  (notices, templates, blackout dates)
//   ssa_manage_others_appointments  → manage_options  (public read token)
//   ssa_manage_staff / "admin only" → manage_options  (notifications, calendar event templates)
//
// Administrators hold manage_options; no other role of the site does, so every restricted
// settings field is removed for anonymous callers, subscribers, authors, editors, translators.
import type { AuthUser } from '../../auth/types.ts';

export const SSA_CAPABILITY_MAP: Record<string, string> = {
  ssa_manage_site_settings: 'manage_options',
  ssa_manage_appointments: 'manage_options',
  ssa_manage_others_appointments: 'manage_options',
  ssa_manage_staff: 'manage_options',
};

export const ADMIN_CAP = 'manage_options';

export function mapCapability(ssaCap: string): string {
  return SSA_CAPABILITY_MAP[ssaCap] ?? ssaCap;
}

export function userCan(user: AuthUser | null, capability: string): boolean {
  return !!user && user.can(mapCapability(capability));
}
