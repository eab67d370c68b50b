/**
 * `authorize`: run only the consent step of Code Authorisation (PKCE S256) for a credential of the profile
 * and keep the result, so a scenario can do the code exchange itself (redirect_uri / PKCE checks). The
 * variable `as` gets `{code, code_verifier, redirect_uri, state, client_id}`; the code and the verifier are
 * registered with the redactor by the auth client, so recordings never show them.
 */
import type { AuthorizeStep } from '../../scenario/types.js';
import { ENGINE_ERROR_CODES, StepError } from '../errors.js';
import { interpolateString, toText } from '../../expressions/index.js';
import type { StepHandler } from '../types.js';

export const authorizeStep: StepHandler<AuthorizeStep> = {
  kind: 'authorize',
  title: (s) => `authorize ${s.authorize.credential ?? 'code'} (consent, PKCE) → ${s.authorize.as}`,
  async run(step, ctx) {
    const { credential = 'code', redirect_uri: redirectTemplate, as } = step.authorize;
    const { target, auth } = ctx.engine;
    if (!target.capabilities.has('consent')) {
      throw new StepError(ENGINE_ERROR_CODES.capability, `target "${target.name}" does not declare the consent capability`, {
        at: ctx.location,
        hint: "declare 'needs: [consent]' (covering an AUTH-CODE-* clause adds it) so targets without automatable consent skip this scenario",
      });
    }
    if (!auth.authorizeCode) throw new StepError(ENGINE_ERROR_CODES.step, 'this engine context has no auth.authorizeCode', { at: ctx.location });
    const redirectUri = redirectTemplate === undefined ? undefined : toText(interpolateString(redirectTemplate, ctx.scope()));
    let grant;
    try {
      grant = await auth.authorizeCode(credential, redirectUri === undefined ? {} : { redirectUri });
    } catch (e) {
      throw new StepError(ENGINE_ERROR_CODES.request, `consent for credential "${credential}" failed: ${ctx.redact((e as Error).message)}`, {
        at: ctx.location,
        cause: e,
        hint: 'check credentials.<name>.consent and redirect_uri in the target profile',
      });
    }
    ctx.vars[as] = {
      code: grant.code,
      code_verifier: grant.codeVerifier,
      redirect_uri: grant.redirectUri,
      state: grant.state,
      client_id: target.credentials[credential]?.clientId ?? null,
    };
  },
};
