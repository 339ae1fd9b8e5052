/**
 * The Cloud API's own words for the send errors a sender acts on (Meta's error code reference),
 * so a rule that names only a `code` is answered as the real API would: message `(#code) title`,
 * `error_data.details`, HTTP 400 (the Graph API answers these with 400, rate limits included).
 */
export const CLOUD_API_ERROR_SAMPLES: Readonly<Record<number, { title: string; details: string }>> = {
  130429: { title: 'Rate limit hit', details: 'Cloud API message throughput has been reached.' },
  130472: { title: "User's number is part of an experiment", details: "Failed to send message because this user's phone number is part of an experiment." },
  131026: {
    title: 'Message undeliverable',
    details: 'Unable to deliver message. Reasons can include: the recipient phone number is not a WhatsApp phone number, or the recipient has not accepted the latest terms.',
  },
  131047: { title: 'Re-engagement message', details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.' },
  131048: { title: 'Spam rate limit hit', details: 'Message failed to send because there are restrictions on how many messages can be sent from this phone number.' },
  131049: {
    title: 'This message was not delivered to maintain healthy ecosystem engagement.',
    details: 'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.',
  },
  131050: {
    title: 'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.',
    details: 'The recipient stopped marketing messages from this business.',
  },
  131056: {
    title: '(Business Account, Consumer Account) pair rate limit hit',
    details: 'Too many messages sent from the sender phone number to the same recipient phone number in a short period of time.',
  },
};

/** The HTTP status the Cloud API answers a send error with: 400 for every code a rule names without a status. */
export const CLOUD_API_ERROR_STATUS = 400;
