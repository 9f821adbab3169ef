// An operator signed in to the console through its forms, as a browser would: the bench's console
// workloads and the dashboard's instruction count (bench/instructions/dashboard.mjs) both need one.

/** The console session's cookie (`name=value`) a response sets, if any. */
function consoleCookie(response) {
  const set = response.headers.getSetCookie().find((cookie) => /^(__Host-)?hotspot_console=[^;]/.test(cookie));
  return set?.split(';')[0];
}

/**
 * Signs `email` in at the console of `base` (`http://host:port`) with its one-time password and
 * changes that password, as the console requires first; returns the session cookie. The password
 * form's one-time token is sent; `formToken: 'optional'` also takes a build whose forms had none.
 */
export async function signInToConsole(base, email, oneTimePassword, { formToken = 'required' } = {}) {
  const post = (path, form, cookie) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
        ...(cookie === undefined ? {} : { cookie }),
      },
      body: new URLSearchParams(form).toString(),
    });
  const signIn = await post('/admin/login', { email, password: oneTimePassword });
  const first = consoleCookie(signIn);
  if (signIn.status !== 303 || first === undefined) throw new Error(`console sign-in answered ${signIn.status}`);
  const password = `bench console ${Date.now().toString(36)} password`;
  const form = await (await fetch(`${base}/admin/password`, { headers: { cookie: first } })).text();
  const token = /name="formToken" value="([^"]+)"/.exec(form)?.[1];
  if (token === undefined && formToken === 'required') throw new Error('the console password form has no form token');
  const changed = await post(
    '/admin/password',
    { current: oneTimePassword, password, repeat: password, ...(token === undefined ? {} : { formToken: token }) },
    first,
  );
  const cookie = consoleCookie(changed);
  if (changed.status !== 303 || cookie === undefined)
    throw new Error(`console password change answered ${changed.status}`);
  return cookie;
}
