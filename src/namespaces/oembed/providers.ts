// The built-in allowlist of oEmbed providers (rest-core §9.2; WordPress 6.9's list). Each URL
// pattern maps to the provider's endpoint; `{format}` is set to `json`. Patterns accept http
// and https and are case-insensitive (VideoPress excepted). Allowlisted providers' HTML is
// trusted as the reference does.

export interface Provider {
  pattern: RegExp;
  endpoint: string;
}

const P = (pattern: RegExp, endpoint: string): Provider => ({ pattern, endpoint });

export const PROVIDERS: readonly Provider[] = [
  P(/^https?:\/\/((m|www)\.)?youtube\.com\/watch.*/i, 'https://www.youtube.com/oembed'),
  P(/^https?:\/\/((m|www)\.)?youtube\.com\/playlist.*/i, 'https://www.youtube.com/oembed'),
  P(/^https?:\/\/((m|www)\.)?youtube\.com\/shorts\/*/i, 'https://www.youtube.com/oembed'),
  P(/^https?:\/\/((m|www)\.)?youtube\.com\/live\/*/i, 'https://www.youtube.com/oembed'),
  P(/^https?:\/\/youtu\.be\/.*/i, 'https://www.youtube.com/oembed'),
  P(/^https?:\/\/(.+\.)?vimeo\.com\/.*/i, 'https://vimeo.com/api/oembed.{format}'),
  P(/^https?:\/\/(www\.)?dailymotion\.com\/.*/i, 'https://www.dailymotion.com/services/oembed'),
  P(/^https?:\/\/dai\.ly\/.*/i, 'https://www.dailymotion.com/services/oembed'),
  P(/^https?:\/\/(www\.)?flickr\.com\/.*/i, 'https://www.flickr.com/services/oembed/'),
  P(/^https?:\/\/flic\.kr\/.*/i, 'https://www.flickr.com/services/oembed/'),
  P(/^https?:\/\/(.+\.)?smugmug\.com\/.*/i, 'https://api.smugmug.com/services/oembed/'),
  P(/^https?:\/\/(www\.)?scribd\.com\/(doc|document)\/.*/i, 'https://www.scribd.com/services/oembed'),
  P(/^https?:\/\/wordpress\.tv\/.*/i, 'https://wordpress.tv/oembed/'),
  P(/^https?:\/\/(.+\.)?crowdsignal\.net\/.*/i, 'https://api.crowdsignal.com/oembed'),
  P(/^https?:\/\/(.+\.)?polldaddy\.com\/.*/i, 'https://api.crowdsignal.com/oembed'),
  P(/^https?:\/\/poll\.fm\/.*/i, 'https://api.crowdsignal.com/oembed'),
  P(/^https?:\/\/(.+\.)?survey\.fm\/.*/i, 'https://api.crowdsignal.com/oembed'),
  P(/^https?:\/\/(www\.)?twitter\.com\/\w{1,15}\/status(es)?\/.*/i, 'https://publish.twitter.com/oembed'),
  P(/^https?:\/\/(www\.)?twitter\.com\/\w{1,15}$/i, 'https://publish.twitter.com/oembed'),
  P(/^https?:\/\/(www\.)?twitter\.com\/\w{1,15}\/likes$/i, 'https://publish.twitter.com/oembed'),
  P(/^https?:\/\/(www\.)?twitter\.com\/\w{1,15}\/lists\/.*/i, 'https://publish.twitter.com/oembed'),
  P(/^https?:\/\/(www\.)?twitter\.com\/\w{1,15}\/timelines\/.*/i, 'https://publish.twitter.com/oembed'),
  P(/^https?:\/\/(www\.)?twitter\.com\/i\/moments\/.*/i, 'https://publish.twitter.com/oembed'),
  P(/^https?:\/\/(www\.)?soundcloud\.com\/.*/i, 'https://soundcloud.com/oembed'),
  P(/^https?:\/\/(open|play)\.spotify\.com\/.*/i, 'https://embed.spotify.com/oembed/'),
  P(/^https?:\/\/(.+\.)?imgur\.com\/.*/i, 'https://api.imgur.com/oembed'),
  P(/^https?:\/\/(www\.)?issuu\.com\/.+\/docs\/.+/i, 'https://issuu.com/oembed_wp'),
  P(/^https?:\/\/(www\.)?mixcloud\.com\/.*/i, 'https://app.mixcloud.com/oembed/'),
  P(/^https?:\/\/(www\.|embed\.)?ted\.com\/talks\/.*/i, 'https://www.ted.com/services/v1/oembed.{format}'),
  P(/^https?:\/\/(www\.)?(animoto|video214)\.com\/play\/.*/i, 'https://animoto.com/oembeds/create'),
  P(/^https?:\/\/(.+)\.tumblr\.com\/.*/i, 'https://www.tumblr.com/oembed/1.0'),
  P(/^https?:\/\/(www\.)?kickstarter\.com\/projects\/.*/i, 'https://www.kickstarter.com/services/oembed'),
  P(/^https?:\/\/kck\.st\/.*/i, 'https://www.kickstarter.com/services/oembed'),
  P(/^https?:\/\/cloudup\.com\/.*/i, 'https://cloudup.com/oembed'),
  P(/^https?:\/\/(www\.)?reverbnation\.com\/.*/i, 'https://www.reverbnation.com/oembed'),
  P(/^https?:\/\/videopress\.com\/v\/.*/, 'https://public-api.wordpress.com/oembed/?for={host}'),
  P(/^https?:\/\/(www\.)?reddit\.com\/r\/[^/]+\/comments\/.*/i, 'https://www.reddit.com/oembed'),
  P(/^https?:\/\/(www\.)?speakerdeck\.com\/.*/i, 'https://speakerdeck.com/oembed.{format}'),
  P(/^https?:\/\/([a-z0-9-]+\.)?amazon\.(com|com\.mx|com\.br|ca)\/.*/i, 'https://read.amazon.com/kp/api/oembed'),
  P(/^https?:\/\/([a-z0-9-]+\.)?amazon\.(co\.uk|de|fr|it|es|in|nl|ru)\/.*/i, 'https://read.amazon.co.uk/kp/api/oembed'),
  P(/^https?:\/\/([a-z0-9-]+\.)?amazon\.(co\.jp|com\.au)\/.*/i, 'https://read.amazon.com.au/kp/api/oembed'),
  P(/^https?:\/\/([a-z0-9-]+\.)?amazon\.cn\/.*/i, 'https://read.amazon.cn/kp/api/oembed'),
  P(/^https?:\/\/(www\.)?a\.co\/.*/i, 'https://read.amazon.com/kp/api/oembed'),
  P(/^https?:\/\/(www\.)?amzn\.to\/.*/i, 'https://read.amazon.com/kp/api/oembed'),
  P(/^https?:\/\/(www\.)?amzn\.eu\/.*/i, 'https://read.amazon.co.uk/kp/api/oembed'),
  P(/^https?:\/\/(www\.)?amzn\.in\/.*/i, 'https://read.amazon.in/kp/api/oembed'),
  P(/^https?:\/\/(www\.)?amzn\.asia\/.*/i, 'https://read.amazon.com.au/kp/api/oembed'),
  P(/^https?:\/\/(www\.)?z\.cn\/.*/i, 'https://read.amazon.cn/kp/api/oembed'),
  P(/^https?:\/\/www\.someecards\.com\/.+-cards\/.+/i, 'https://www.someecards.com/v2/oembed/'),
  P(/^https?:\/\/www\.someecards\.com\/usercards\/viewcard\/.+/i, 'https://www.someecards.com/v2/oembed/'),
  P(/^https?:\/\/some\.ly\/.+/i, 'https://www.someecards.com/v2/oembed/'),
  P(/^https?:\/\/(www\.)?tiktok\.com\/.*\/video\/.*/i, 'https://www.tiktok.com/oembed'),
  P(/^https?:\/\/(www\.)?tiktok\.com\/@.*/i, 'https://www.tiktok.com/oembed'),
  P(/^https?:\/\/([a-z]{2}|www)\.pinterest\.com(\.(au|mx))?\/.*/i, 'https://www.pinterest.com/oembed.json'),
  P(/^https?:\/\/(www\.)?wolframcloud\.com\/obj\/.+/i, 'https://www.wolframcloud.com/oembed'),
  P(/^https?:\/\/pca\.st\/.+/i, 'https://pca.st/oembed.json'),
  P(/^https?:\/\/((play|www)\.)?anghami\.com\/.*/i, 'https://api.anghami.com/rest/v1/oembed.view'),
  P(/^https?:\/\/bsky\.app\/profile\/.*\/post\/.*/i, 'https://embed.bsky.app/oembed'),
  P(/^https?:\/\/(www\.)?canva\.com\/design\/.*\/view.*/i, 'https://canva.com/_oembed'),
];

/** The provider endpoint for a URL from the allowlist, or null. */
export function findProvider(url: string, siteHost = ''): string | null {
  for (const p of PROVIDERS) {
    if (p.pattern.test(url))
      return p.endpoint.replace('{format}', 'json').replace('{host}', encodeURIComponent(siteHost));
  }
  return null;
}
