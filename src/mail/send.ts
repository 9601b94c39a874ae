/**
 * Outgoing mail, through the SMTP server of `SMTP_URL` (`smtp://user:pass@host:port`, STARTTLS when
 * the server offers it; `smtps://…` for TLS from the start), from `MAIL_FROM`. Every message the
 * server sends (password resets, invitations) goes through {@link sendMail}.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** One transport (with its pooled connection settings) per SMTP URL. */
const transports = new Map<string, Transporter>();

function transportFor(url: string): Transporter {
  let transport = transports.get(url);
  if (!transport) {
    transport = nodemailer.createTransport(url);
    transports.set(url, transport);
  }
  return transport;
}

/** Whether the server can send mail (`SMTP_URL` is set). */
export function canSendMail(config: Pick<Config, 'smtp'>): boolean {
  return config.smtp !== null;
}

/** Sends `message`; throws when there is no SMTP server configured or the server refuses it. */
export async function sendMail(config: Pick<Config, 'smtp'>, message: MailMessage): Promise<void> {
  const smtp = config.smtp;
  if (!smtp) throw new Error('no SMTP server is configured (SMTP_URL)');
  await transportFor(smtp.url).sendMail({
    from: smtp.from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    ...(message.html ? { html: message.html } : {}),
  });
}
