// Real-looking secrets of many kinds, generated at run time from a fixed seed: none is
// real, none sits in the source (where a push-protection scanner would stop it), and
// every run makes the same ones. Each kind names the part a leak would show (`needle`):
// the test greps every export for it.

import { createHash } from "node:crypto";

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const UPPER_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const HEX = "0123456789abcdef";
const URLSAFE = `${ALNUM}_-`;
const B64 = `${ALNUM}+/`;
const BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L";

/** Characters drawn from sha256(seed:counter): the same seed, the same secret, in every run. */
function generator(seed: number): (chars: string, n: number) => string {
  let counter = 0;
  let pool: Buffer = Buffer.alloc(0);
  return (chars, n) => {
    let s = "";
    while (s.length < n) {
      if (!pool.length) pool = createHash("sha256").update(`${seed}:${counter++}`).digest();
      s += chars[pool[0] % chars.length];
      pool = pool.subarray(1);
    }
    return s;
  };
}

export interface SecretKind {
  kind: string;
  /** The rule expected to name it. */
  rule: string;
  /** How it is written in a session (a line of text). */
  text: string;
  /** What must not appear in any export. */
  needle: string;
}

function b64url(s: string): string {
  return Buffer.from(s).toString("base64url");
}

function pem(label: string, r: ReturnType<typeof generator>): { text: string; needle: string } {
  const lines = Array.from({ length: 6 }, () => r(B64, 64));
  return { text: `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----`, needle: lines[2] };
}

/** The kinds, each with its own seed so adding one changes no other. */
export function secretKinds(): SecretKind[] {
  const k = (kind: string, rule: string, make: (r: ReturnType<typeof generator>) => { text: string; needle: string } | string, seed: number): SecretKind => {
    const made = make(generator(seed));
    return typeof made === "string" ? { kind, rule, text: made, needle: made } : { kind, rule, ...made };
  };
  return [
    k("Anthropic API key", "anthropic-api-key", (r) => `sk-ant-api03-${r(URLSAFE, 93)}AA`, 1),
    k("Anthropic admin key", "anthropic-admin-api-key", (r) => `sk-ant-admin01-${r(URLSAFE, 93)}AA`, 2),
    k("OpenAI project key", "openai-api-key", (r) => `sk-proj-${r(URLSAFE, 74)}T3BlbkFJ${r(URLSAFE, 74)}`, 3),
    k("GitHub PAT", "github-pat", (r) => `ghp_${r(ALNUM, 36)}`, 4),
    k("GitHub fine-grained PAT", "github-fine-grained-pat", (r) => `github_pat_${r(ALNUM, 22)}_${r(ALNUM, 59)}`, 5),
    k("GitHub OAuth token", "github-oauth", (r) => `gho_${r(ALNUM, 36)}`, 6),
    k("GitHub app token", "github-app-token", (r) => `ghs_${r(ALNUM, 36)}`, 7),
    k("GitLab PAT", "gitlab-pat", (r) => `glpat-${r(URLSAFE, 20)}`, 8),
    k("Slack bot token", "slack-bot-token", (r) => `xoxb-${r("0123456789", 12)}-${r("0123456789", 13)}-${r(ALNUM, 24)}`, 9),
    k("Slack webhook", "slack-webhook-url", (r) => {
      const path = `T${r(UPPER_DIGITS, 8)}/B${r(UPPER_DIGITS, 10)}/${r(ALNUM, 24)}`;
      return { text: `https://hooks.slack.com/services/${path}`, needle: path };
    }, 10),
    k("Stripe live key", "stripe-access-token", (r) => `sk_live_${r(ALNUM, 24)}`, 11),
    k("AWS access key id", "aws-access-token", (r) => `AKIA${r(UPPER_DIGITS, 16)}`, 12),
    k("AWS secret key", "aws-secret-access-key", (r) => {
      const v = r(B64, 40);
      return { text: `aws_secret_access_key = ${v}`, needle: v };
    }, 13),
    k("Azure AD client secret", "azure-ad-client-secret", (r) => `${r(ALNUM, 3)}8Q~${r(`${ALNUM}_~.-`, 34).replace(/^[-.~]/, "x")}`, 14),
    k("Azure storage key", "azure-storage-account-key", (r) => {
      const v = `${r(B64, 86)}==`;
      return { text: `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${v};EndpointSuffix=core.windows.net`, needle: v };
    }, 15),
    k("Google Cloud API key", "gcp-api-key", (r) => `AIza${r(URLSAFE, 35)}`, 16),
    k("GCP service account", "private-key", (r) => {
      const key = pem("PRIVATE KEY", r);
      const json = JSON.stringify({ type: "service_account", project_id: "acme-prod", private_key_id: r(HEX, 40), private_key: `${key.text}\n`, client_email: "ci@acme-prod.iam.gserviceaccount.com" });
      return { text: json, needle: key.needle };
    }, 17),
    k("GCP service account key id", "gcp-service-account-key-id", (r) => {
      const id = r(HEX, 40);
      return { text: `{"type": "service_account", "private_key_id": "${id}"}`, needle: id };
    }, 18),
    k("Google OAuth client secret", "google-oauth-client-secret", (r) => `GOCSPX-${r(URLSAFE, 28)}`, 19),
    k("npm token", "npm-access-token", (r) => `npm_${r(ALNUM, 36)}`, 20),
    k("Hugging Face token", "huggingface-access-token", (r) => `hf_${r(LETTERS, 34)}`, 21),
    k("JWT", "jwt", (r) => {
      const sig = r(URLSAFE, 43);
      return { text: `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(`{"sub":"${r(HEX, 12)}","name":"Ana","iat":1716239022}`)}.${sig}`, needle: sig };
    }, 22),
    k("RSA private key", "private-key", (r) => pem("RSA PRIVATE KEY", r), 23),
    k("OpenSSH private key", "private-key", (r) => pem("OPENSSH PRIVATE KEY", r), 24),
    k("Password in a URL", "url-password", (r) => {
      const pw = `${r(ALNUM, 14)}9x`;
      return { text: `postgres://admin:${pw}@db.internal:5432/app`, needle: pw };
    }, 25),
    k("Basic Authorization header", "authorization-header", (r) => {
      const v = Buffer.from(`deploy:${r(ALNUM, 18)}`).toString("base64");
      return { text: `Authorization: Basic ${v}`, needle: v };
    }, 26),
    k("Bearer token", "authorization-header", (r) => {
      const v = r(ALNUM, 40);
      return { text: `curl -H "Authorization: Bearer ${v}" https://api.example.com/v1/me`, needle: v };
    }, 27),
    k(".env password", "secret-assignment", (r) => {
      const v = r(ALNUM, 20);
      return { text: `DATABASE_PASSWORD=${v}`, needle: v };
    }, 28),
    k(".env client secret (quoted)", "secret-assignment", (r) => {
      const v = r(`${ALNUM}-_`, 32);
      return { text: `OAUTH_CLIENT_SECRET="${v}"`, needle: v };
    }, 29),
    k("SendGrid key", "sendgrid-api-token", (r) => `SG.${r(URLSAFE, 22)}.${r(URLSAFE, 43)}`, 30),
    k("Twilio key", "twilio-api-key", (r) => `SK${r(HEX, 32)}`, 31),
    k("Shopify token", "shopify-access-token", (r) => `shpat_${r(HEX, 32)}`, 32),
    k("DigitalOcean token", "digitalocean-token", (r) => `dop_v1_${r(HEX, 64)}`, 33),
    k("PyPI token", "pypi-upload-token", (r) => `pypi-AgEIcHlwaS5vcmc${r(URLSAFE, 60)}`, 34),
    k("Groq key", "groq-api-key", (r) => `gsk_${r(ALNUM, 52)}`, 35),
    k("Databricks token", "databricks-api-token", (r) => `dapi${r(HEX, 32)}`, 36),
    k("Linear key", "linear-api-key", (r) => `lin_api_${r(ALNUM, 40)}`, 37),
    k("Postman key", "postman-api-token", (r) => `PMAK-${r(HEX, 24)}-${r(HEX, 34)}`, 38),
    k("Vault token", "vault-service-token", (r) => `hvs.${r(URLSAFE, 94)}`, 39),
    k("Docker Hub PAT", "dockerhub-pat", (r) => `dckr_pat_${r(URLSAFE, 27)}`, 40),
    k("Telegram bot token", "telegram-bot-api-token", (r) => `${r("123456789", 9)}:AA${r(URLSAFE, 33)}`, 41),
    k("age secret key", "age-secret-key", (r) => `AGE-SECRET-KEY-1${r(BECH32, 58)}`, 42),
    k("x-api-key header", "secret-assignment", (r) => {
      const v = r(ALNUM, 32);
      return { text: `{"x-api-key": "${v}"}`, needle: v };
    }, 43),
    k("Sentry user token", "sentry-user-token", (r) => `sntryu_${r(HEX, 64)}`, 44),
  ];
}

/** Every kind's text, one per line: what the fixture writes into each place. */
export function secretBlob(kinds: readonly SecretKind[] = secretKinds()): string {
  return kinds.map((s) => `${s.kind}: ${s.text}`).join("\n");
}
