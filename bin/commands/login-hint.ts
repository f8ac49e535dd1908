/** What `serve` and `mock` print under "Log in:": whom to log in as, for the data they started on. */
export interface LoginHintInput {
  url: string;
  /** The data set FILE given to --data, with the accounts in it that have a password. */
  own?: { file: string; logins: string[] } | undefined;
  /** The demo accounts' passwords, when they are the documented defaults (else the variables). */
  demoAdminPassword?: string | undefined;
  demoUserPassword?: string | undefined;
}

/** The banner lines of a login with curl, or none when the data set lets nobody log in. */
export function loginHint({ url, own, demoAdminPassword, demoUserPassword }: LoginHintInput) {
  const login = own
    ? own.logins[0] && {
        username: own.logins[0],
        password: `<its password in ${own.file}>`,
        other:
          own.logins.length > 1 ? `${own.logins.length - 1} more account(s) in ${own.file}` : '',
      }
    : {
        username: 'admin@example.com',
        password: demoAdminPassword ?? '$APIKIT_ADMIN_PASSWORD',
        other: `user@example.com / ${demoUserPassword ?? '$APIKIT_USER_PASSWORD'}`,
      };
  if (!login) return [];
  return [
    `  Log in:  curl -s ${url}/api/v1/auth/login -H 'Content-Type: application/json' \\`,
    `             -d ${bodyArgument(login.username, login.password)}`,
    ...(login.other ? [`           (or ${login.other})`] : []),
  ];
}

/**
 * The JSON body as one shell word that pastes as printed: single-quoted, or double-quoted with
 * its quotes escaped where the password is a variable the shell must expand.
 */
function bodyArgument(username: string, password: string): string {
  const json = `{"username":"${username}","password":"${password}"}`;
  return password.startsWith('$') ? `"${json.replace(/"/g, '\\"')}"` : `'${json}'`;
}
