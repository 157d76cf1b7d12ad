import type { MailMessage } from './mail-transport.ts';

const escapeHtml = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

function layout(appName: string, paragraphs: string[], action?: { label: string; link: string }): string {
  const body = paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n');
  const button = action
    ? `<p><a href="${escapeHtml(action.link)}" style="background:#228be6;color:#fff;padding:10px 16px;border-radius:4px;text-decoration:none">${escapeHtml(action.label)}</a></p>
<p style="color:#666;font-size:13px">Or paste this link into your browser: ${escapeHtml(action.link)}</p>`
    : '';
  return `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">
<h2>${escapeHtml(appName)}</h2>
${body}
${button}
</body></html>`;
}

export function verificationMail(appName: string, to: string, firstName: string, link: string): MailMessage {
  const lines = [
    `Hello ${firstName},`,
    `Please confirm your e-mail address to finish creating your ${appName} account.`,
    'The link expires in 24 hours. If you did not sign up, ignore this message.',
  ];
  return {
    to,
    subject: `Verify your e-mail address for ${appName}`,
    text: `${lines.join('\n\n')}\n\n${link}\n`,
    html: layout(appName, lines, { label: 'Verify e-mail address', link }),
  };
}

export function resetMail(appName: string, to: string, firstName: string, link: string): MailMessage {
  const lines = [
    `Hello ${firstName},`,
    `Someone asked to reset the password of your ${appName} account.`,
    'The link expires in 1 hour and works once. If it was not you, ignore this message: your password stays as it is.',
  ];
  return {
    to,
    subject: `Reset your ${appName} password`,
    text: `${lines.join('\n\n')}\n\n${link}\n`,
    html: layout(appName, lines, { label: 'Reset password', link }),
  };
}

export function passwordChangedMail(appName: string, to: string, firstName: string): MailMessage {
  const lines = [
    `Hello ${firstName},`,
    `The password of your ${appName} account was just changed, and your other sessions were signed out.`,
    'If this was not you, reset your password at once and tell your administrator.',
  ];
  return {
    to,
    subject: `Your ${appName} password was changed`,
    text: lines.join('\n\n'),
    html: layout(appName, lines),
  };
}
