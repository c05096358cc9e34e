// The secret rules an export's text passes. The table is our own, modelled on gitleaks'
// default rule set (config/gitleaks.toml, github.com/gitleaks/gitleaks, MIT licence): the
// same rule ids where gitleaks has the rule, its keyword pre-filter (a rule's regex runs
// only on text that contains one of its keywords) and its entropy floor for the loose
// rules. gitleaks was chosen over secretlint's presets because its single table covers
// more providers (200+ rules, kept current by a large community) and its ids are the
// vocabulary secret scanners share. We take the providers an agent session is likely to
// hold (AI APIs, code hosts, clouds, chat, payments, registries) and add what the issue
// asks that gitleaks leaves to its generic rule: `Authorization` headers, bearer tokens,
// passwords in URLs and `.env`-style assignments.
//
// Every regex is global with indices (`dg`). The secret is its named group `s`, else the
// whole match: only that part is replaced, so `password=hunter22` keeps `password=`. No
// secret group may hold a double quote or end in a backslash, so a replacement inside a
// JSON string's text leaves valid JSON.

import { entropy } from "./entropy";

export interface SecretRule {
  id: string;
  /** A short description for the report. */
  description: string;
  /** Lower-case strings one of which the text must contain before the regex runs. */
  keywords: readonly string[];
  regex: RegExp;
  /** Whether a found value is a secret (the match's groups are given); left out: every match is. */
  accept?(secret: string, groups: Readonly<Record<string, string | undefined>>): boolean;
}

/** A token-shaped rule: a fixed prefix then its body, standing alone (not inside a longer word). */
function prefixed(id: string, description: string, keyword: string, body: string, flags = ""): SecretRule {
  return { id, description, keywords: [keyword.toLowerCase()], regex: new RegExp(`(?<![A-Za-z0-9_])${body}(?![A-Za-z0-9_])`, `dg${flags}`) };
}

/** Values that stand for a secret without being one: placeholders, variables, masks. */
const PLACEHOLDER = /^(?:\*+|x+|\.+|<[^>]*>|\$\{?[\w.]+\}?|\{\{.*\}\}|%[\w]+%|(?:process\.env|os\.environ|env)\b.*|change_?me|password|passwd|secret|your[_-].*|example.*|redacted.*|\[REDACTED:.*|null|undefined|none|true|false)$/i;

const CLASSES = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/];

/** A value with the look of a secret: not a placeholder, mixed characters, enough entropy. */
export function secretLooking(value: string, minEntropy: number): boolean {
  if (PLACEHOLDER.test(value)) return false;
  // An identifier or member access without a digit is code (`token = session.authToken`).
  if (/^[A-Za-z_$][\w$.]*$/.test(value) && !/\d/.test(value)) return false;
  if (/^\d+$/.test(value) || /^[/~.]/.test(value)) return false;
  if (CLASSES.filter((c) => c.test(value)).length < 2) return false;
  return entropy(value) >= minEntropy;
}

// Names that hold a secret in `NAME=value` / `"name": "value"`; counts of tokens are no secret.
const SECRET_NAME = /secret|passw(?:or)?d|passphrase|pwd|api[_.-]?key|apikey|access[_.-]?key|auth[_.-]?key|private[_.-]?key|token|credential/i;
const NOT_SECRET_NAME = /tokens|tokeniz|token_?(?:count|type|usage|limit|budget|estimate)|max_?token|(?:next|page|cursor|continuation|csrf)_?token|key_?(?:id|name|path|file)|_(?:file|path|url|id)$/i;

export const RULES: readonly SecretRule[] = [
  prefixed("anthropic-admin-api-key", "Anthropic admin API key", "sk-ant-admin", "sk-ant-admin01-[\\w-]{80,120}"),
  prefixed("anthropic-api-key", "Anthropic API key", "sk-ant-", "sk-ant-(?:api|oat|ort)\\d\\d-[\\w-]{80,120}"),
  prefixed("openai-api-key", "OpenAI API key", "t3blbkfj", "sk-(?:(?:proj|svcacct|admin)-)?[\\w-]{20,}T3BlbkFJ[\\w-]{20,}"),
  prefixed("github-fine-grained-pat", "GitHub fine-grained personal access token", "github_pat_", "github_pat_\\w{82}"),
  prefixed("github-pat", "GitHub personal access token", "ghp_", "ghp_[0-9A-Za-z]{36}"),
  prefixed("github-oauth", "GitHub OAuth access token", "gho_", "gho_[0-9A-Za-z]{36}"),
  { ...prefixed("github-app-token", "GitHub app token", "_", "(?:ghu|ghs)_[0-9A-Za-z]{36}"), keywords: ["ghu_", "ghs_"] },
  prefixed("github-refresh-token", "GitHub refresh token", "ghr_", "ghr_[0-9A-Za-z]{36}"),
  prefixed("gitlab-pat", "GitLab personal access token", "glpat-", "glpat-[\\w.-]{20,}"),
  prefixed("gitlab-ptt", "GitLab pipeline trigger token", "glptt-", "glptt-[0-9a-f]{40}"),
  prefixed("gitlab-deploy-token", "GitLab deploy token", "gldt-", "gldt-[\\w-]{20,}"),
  prefixed("gitlab-rrt", "GitLab runner registration token", "gr1348941", "GR1348941[\\w-]{20,}"),
  prefixed("slack-bot-token", "Slack bot token", "xoxb-", "xoxb-\\d{10,13}-\\d{10,13}[A-Za-z0-9-]*"),
  { ...prefixed("slack-user-token", "Slack user token", "xox", "xox[pe](?:-\\d{10,13}){3}-[A-Za-z0-9-]{28,34}"), keywords: ["xoxp-", "xoxe-"] },
  prefixed("slack-app-token", "Slack app-level token", "xapp-", "xapp-\\d-[A-Z0-9]+-\\d+-[a-z0-9]+", "i"),
  { id: "slack-webhook-url", description: "Slack webhook URL", keywords: ["hooks.slack.com"], regex: /hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9+/]{20,80}/dg },
  prefixed("stripe-access-token", "Stripe secret or restricted key", "_", "(?:sk|rk)_(?:test|live|prod)_[A-Za-z0-9]{10,99}"),
  { ...prefixed("aws-access-token", "AWS access key id", "a", "(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}"), keywords: ["a3t", "akia", "asia", "abia", "acca"], accept: (s) => !s.endsWith("EXAMPLE") },
  { id: "aws-secret-access-key", description: "AWS secret access key", keywords: ["aws"], regex: /aws[\w.-]{0,20}?(?:secret|sk)[\w.-]{0,20}["']?\s*(?::|=|=>)\s*["']?(?<s>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/dgi, accept: (s) => entropy(s) >= 3.5 },
  { id: "azure-ad-client-secret", description: "Azure AD client secret", keywords: ["q~"], regex: /(?<![\w~.-])(?<s>[a-zA-Z0-9_~.]{3}\dQ~[a-zA-Z0-9_~.-]{31,34})(?![\w~.-])/dg },
  { id: "azure-storage-account-key", description: "Azure storage account key", keywords: ["accountkey="], regex: /AccountKey=(?<s>[A-Za-z0-9+/]{86}==)/dgi },
  { id: "azure-sas-signature", description: "Azure shared access signature", keywords: ["sig="], regex: /[?&]sig=(?<s>[A-Za-z0-9%+/]{40,}(?:%3D|=)*)/dg },
  prefixed("gcp-api-key", "Google Cloud API key", "aiza", "AIza[\\w-]{35}"),
  { id: "gcp-service-account-key-id", description: "GCP service account private key id", keywords: ["private_key_id"], regex: /private_key_id\\?"\s*:\s*\\?"(?<s>[a-f0-9]{40})\\?"/dg },
  prefixed("google-oauth-client-secret", "Google OAuth client secret", "gocspx-", "GOCSPX-[\\w-]{28}"),
  prefixed("google-oauth-access-token", "Google OAuth access token", "ya29.", "ya29\\.[\\w-]{30,}"),
  prefixed("npm-access-token", "npm access token", "npm_", "npm_[A-Za-z0-9]{36}"),
  prefixed("huggingface-access-token", "Hugging Face access token", "hf_", "hf_[A-Za-z]{34}"),
  prefixed("huggingface-organization-api-token", "Hugging Face organization token", "api_org_", "api_org_[A-Za-z]{34}"),
  prefixed("sendgrid-api-token", "SendGrid API key", "sg.", "SG\\.[\\w-]{22}\\.[\\w-]{43}"),
  prefixed("twilio-api-key", "Twilio API key", "sk", "SK[0-9a-fA-F]{32}"),
  prefixed("shopify-access-token", "Shopify access token", "shp", "shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),
  { ...prefixed("digitalocean-token", "DigitalOcean token", "_v1_", "do[opr]_v1_[a-f0-9]{64}") },
  prefixed("pypi-upload-token", "PyPI upload token", "pypi-ageichlwas5vcmc", "pypi-AgEIcHlwaS5vcmc[\\w-]{50,}"),
  prefixed("groq-api-key", "Groq API key", "gsk_", "gsk_[A-Za-z0-9]{52}"),
  prefixed("databricks-api-token", "Databricks API token", "dapi", "dapi[a-f0-9]{32}(?:-\\d)?"),
  prefixed("linear-api-key", "Linear API key", "lin_api_", "lin_api_[A-Za-z0-9]{40}"),
  prefixed("postman-api-token", "Postman API key", "pmak-", "PMAK-[a-f0-9]{24}-[a-f0-9]{34}"),
  { ...prefixed("vault-service-token", "HashiCorp Vault token", "hv", "hv[sb]\\.[\\w-]{90,}"), keywords: ["hvs.", "hvb."] },
  prefixed("dockerhub-pat", "Docker Hub personal access token", "dckr_pat_", "dckr_pat_[\\w-]{27}"),
  prefixed("grafana-service-account-token", "Grafana service account token", "glsa_", "glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"),
  prefixed("perplexity-api-key", "Perplexity API key", "pplx-", "pplx-[A-Za-z0-9]{48}"),
  prefixed("xai-api-key", "xAI API key", "xai-", "xai-[A-Za-z0-9]{80}"),
  prefixed("sentry-user-token", "Sentry user token", "sntryu_", "sntryu_[a-f0-9]{64}"),
  prefixed("age-secret-key", "age secret key", "age-secret-key-1", "AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
  prefixed("telegram-bot-api-token", "Telegram bot token", ":aa", "\\d{8,10}:AA[\\w-]{33}"),
  // A PEM block, with real line breaks or the `\n` of a JSON string; a block cut off before its END line too.
  { id: "private-key", description: "Private key (PEM block)", keywords: ["private key"], regex: /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[^"'`]{64,}?-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----/dgi },
  { id: "private-key", description: "Private key (PEM block)", keywords: ["private key"], regex: /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----(?:[A-Za-z0-9+/=: ,\t\r\n-]|\\[rn])*[A-Za-z0-9+/=]/dgi },
  { id: "jwt", description: "JSON Web Token", keywords: ["ey"], regex: /(?<![\w-])ey[A-Za-z0-9_-]{17,}\.ey[A-Za-z0-9_-]{17,}\.(?:[A-Za-z0-9_-]{10,}={0,2})?/dg },
  {
    id: "url-password",
    description: "Password in a URL",
    keywords: ["://"],
    regex: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@'"`<>\\]{1,64}:(?<s>[^\s:/@'"`<>\\]{3,128})@/dgi,
    accept: (s) => !PLACEHOLDER.test(s) && !/^(?:pass|pwd|token|\*+)$/i.test(s),
  },
  {
    id: "authorization-header",
    description: "Authorization header credential",
    keywords: ["authorization"],
    regex: /\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?<scheme>bearer|basic|token|digest|bot|apikey|sso-key)\s+)?(?<s>[A-Za-z0-9\-._~+/=:]{8,})/dgi,
    accept: (s, g) => (g.scheme ? !PLACEHOLDER.test(s) && entropy(s) >= 2.5 : s.length >= 16 && secretLooking(s, 3)),
  },
  { id: "bearer-token", description: "Bearer token", keywords: ["bearer"], regex: /\bbearer\s+(?<s>[A-Za-z0-9\-._~+/]{16,}=*)/dgi, accept: (s) => /\d/.test(s) && /[A-Za-z]/.test(s) && !PLACEHOLDER.test(s) },
  {
    id: "secret-assignment",
    description: "Secret-named assignment (KEY=value, \"key\": \"value\")",
    keywords: ["secret", "pass", "pwd", "key", "token", "credential"],
    regex: /(?<![A-Za-z0-9_.-])(?<name>[A-Za-z0-9_.-]{0,40}?)\\?["']?\s*(?::=|=>|==?|:)\s*\\?["']?(?<s>[^\s"'`;,\\()[\]{}<>]{8,200})(?![^\s"'`;,\\)\]}<>])(?!\()/dg,
    accept: (s, g) => SECRET_NAME.test(g.name ?? "") && !NOT_SECRET_NAME.test(g.name ?? "") && secretLooking(s, 3),
  },
];
