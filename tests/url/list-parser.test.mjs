import { parseList, parseListLine, urlExpressions } from 'cuckoo-bloom-wasm';
import { prng } from '../helpers/keys.mjs';

const URLHAUS_SAMPLE = String.raw`! Title: Online Malicious URL Blocklist
! Updated: 2025-10-25T00:10:18Z
! Expires: 12 hours (update frequency)
! Homepage: https://gitlab.com/malware-filter/urlhaus-filter
! License: https://gitlab.com/malware-filter/urlhaus-filter#license
! Source: https://urlhaus.abuse.ch/api/
1.1.104.12
103.156.141.240
103.39.139.222
106.58.23.204
111.38.106.19
111101111.ru
113.205.187.190
115.240.70.185
117.232.190.64
119.15.92.78
121.160.146.2
123.14.195.166
124.221.32.87
136.169.119.33
147.50.240.62
158.255.83.37
174.106.42.3
176.46.152.21
178.214.241.150
181.206.158.190
182.16.177.85
185.196.11.28
188.12.184.204
190.2.237.104
194.187.151.7
2.54.238.31
200.59.83.88
200.59.88.3
202.51.100.238
211.192.113.232
213.81.223.230
220.201.142.16
222.95.24.93
27.72.159.162
36.94.219.31
41.160.128.130
42.5.94.90
43.240.74.250
46.125.88.168
47.237.122.155
5.201.176.87
60.22.58.116
64-agd.pages.dev
64.140.99.97
72.204.240.236
78.26.136.125
80.24.87.77
82.157.148.8
85.207.44.106
88.28.218.163
91.228.64.59
94.103.2.6
accesspoint.cc
ameli-vitale-guadeloupe.com
atasapka.com.tr
beesoft.id.vn
book.rollingvideogames.com
cc9.ne.jp
changemyseat.com
colis-mondial.net
cs.go.kg
data.yhydl.com
dgt-2025.com
down.54nb.com
download.pdf00.cn
elisans.novayonetim.com
fakers.co.jp
frygzjyhtiunvhvnacif.supabase.co
globaltechbilling.com
hnjgdl.geps.glodon.com
iiiconstruction.net
j-0-09g-9bh-h-ggf-1324992141.cos.ap-bangkok.myqcloud.com
kakhun.ru
kuakuawenjian.oss-cn-hangzhou.aliyuncs.com
logistik-dienstleistungen-portal.com
michellegraci.com
mundocarnes.cl
newshostingsupdate.com
onlinetanecni.cz
onyxsafecrypt.de
p5.zbjimg.com
plavomore.com
public.demo.securecloudsandbox.com
relais-livraison-colis.com
safefiles2.oss-cn-beijing.aliyuncs.com
serasoo.direct.quickconnect.to
simbhaolisugars.in
spaceframe.mobi.space-frame.co.za
stdown.dinju.com
talentrecruitments.com
thtp2.volamngayxua.net
ultrauraniummirai.ddns.net
v9c3.cdn-3-29.ru
votre-livraison-colis.com
www999999asgasg-1327129302.cos.ap-chengdu.myqcloud.com
||2024.sci-hub.se/2294/7a43bb4cf6c57229b02a9604a1f4614e/skidmore1966.pdf^$all
||bitbucket.org/dfffrf/dfdf/downloads/notificaci%c3%b3n_demanda_virtual_juzgado_09_de_circuito_de_bogot%c3%a1.zip^$all
||bitbucket.org/sansebas/sdsd/downloads/01citaci%c3%b3n_personal_demanda_virtual_juzgado_penal_de_circuito_de.zip^$all
||cdn.pixelbin.io/v2/long-glade-33dc08/original//rump_img.jpeg^$all
||cfs5.tistory.com/upload_control/download.blog?fhandle=ymxvzzcxmzyyqgzzns50axn0b3j5lmnvbtovyxr0ywnolzavmtqwmdawmdawmdawlmv4zq%3d%3d&filename=crack-pro20.exe^$all
||codeload.github.com/daneeltrevize/tabsat/legacy.tar.gz/refs/tags/0.9.2^$all
||dhnconstrucciones.com.ar/wp-admin/sm02zsvdywdotb7rql/^$all
||docs.google.com/document/d/e/2pacx-1vtyg409rjv4omi3oujyjsc6ajzflluuz37ofzbpjjihmrewoh2ehp2pwbfllgyy_yzqdrldwcaejvd5/pub^$all
||docs.google.com/uc?export=download&id=140vkyfrfhbqkukc2hnw-gsvi5wjw6iyi^$all
||docs.google.com/uc?export=download&id=1ctmywlj5wouiug1wgizy3ke7yj1u0yor&revid=0b_t0-zked1mgagxwmxcwywq5q0q1uk1uoxcwaup6l2ovmtdjpq^$all
||docs.google.com/uc?export=download&id=1gv_nk9llqw4fxudo-khja7nuuj1kevvw&revid=0b7zefp-g6n7vm0zhowo4be9pvus4mmh0ymxvd3r6zlu3ylznpq^$all
||docs.google.com/uc?export=download&id=1h_dyp_d5lst4akyf2qezxl7j1scvbtvs&revid=0b5thckui5i0mdk5moelbnm9vuhnydvjnvwpyq01vrg5xvwhrpq^$all
||docs.google.com/uc?export=download&id=1jpl-uouydm5hypqm67uokyddrblbpxvw&revid=0b7zpiprmoc5ubhpwclq0cxdyte5vwtrbymnidznhtgm3bzvrpq^$all
||docs.google.com/uc?export=download&id=1m8jszvq-ztfrul7vgsb6q-n3ftgnkbdj&revid=0bxrhybf9__wnmgjlnmxmunzznlu0v204azc4edmzcep6a0hzpq^$all
||docs.google.com/uc?export=download&id=1sbd1rnw8luztjmsh6gdlzupvyupbopa0&revid=0b3yyjts_woklr2vnyxvqohlidxbxn1l2wwjntxfnwvi5v0h3pq^$all
||drive.google.com/uc?export=download&confirm=t&id=145b1fbjtyee3w1rjsazo7hzcoiiaxzum&uuid=eb581596-9566-4a21-b3b6-e6909eb42ff6&at=akkf8vzrltviqrn7wljfjcwisgcc:1683793107077^$all
||drive.google.com/uc?export=download&id=1fhqpevblkipshqumjmsbzeetdzhzxv-j^$all
||drive.google.com/uc?export=download&id=1satmexzn3qpvqzfxnc-5dtnnn8lihdxh^$all
||farschid.de/verkaufsberater_service/3cxmq4uaxy/^$all
||farschid.de/verkaufsberater_service/ozrw36a2y1ch2cluzy/^$all
||farschid.de/verkaufsberater_service/uadjw/^$all
||firebasestorage.googleapis.com/v0/b/loloer3434.firebasestorage.app/o/ab23%2fdllskyyyyyyyyyyyyyyy.txt?alt=media&token=ba6fc66c-551c-42b7-934c-808e6e48e247^$all
||firebasestorage.googleapis.com/v0/b/loloer3434.firebasestorage.app/o/cifrado%20fff3333%2fdllroda.txt?alt=media&token=8b9a573d-2052-4ffd-963f-6d1e2e01398c^$all
||firebasestorage.googleapis.com/v0/b/loloer3434.firebasestorage.app/o/cifrado%20fff3333%2fdllsky%20(1).txt?alt=media&token=534a43d1-25fa-4b07-9351-33997cb48df4^$all
||firebasestorage.googleapis.com/v0/b/loloer3434.firebasestorage.app/o/cifrado%20fff3333%2fnewdll.txt?alt=media&token=2a7619df-4ea7-43d3-9c6e-b74be01ff67f^$all
||firebasestorage.googleapis.com/v0/b/loloer3434.firebasestorage.app/o/cifrado%20fff3333%2fpesky%20(5).txt?alt=media&token=7e30d39e-c339-4bf9-82f6-84ca73f9407b^$all
||github.com/00146664032q/dx9ware-roblox/releases/download/v1.0/software.zip^$all
||github.com/agaztya/trezor-suite-official-wallet-management/releases/download/v1.0/installer.zip^$all
||github.com/andremedina15/reel-rec/releases/download/v2.0/release_x64.zip^$all
||github.com/awskhahaha/a/releases/download/v1.0/software.zip^$all
||github.com/bol-van/zapret/releases/download/v70.6/zapret-v70.6.zip^$all
||github.com/chrlzjanem/laravel-py/releases/download/v1.0/software.zip^$all
||github.com/daar12-web/testdmode/releases/download/v2.0/software.zip^$all
||github.com/doomzday4032/blox-fruits-autofarm/releases/download/v2.0/software.zip^$all
||github.com/emilio549/solindexllm/releases/download/v2.0/software.zip^$all
||github.com/fnfurrcann/any-listen/releases/download/v2.0/software.zip^$all
||github.com/gwynelan/linux-basics-for-hackers/releases/download/v2.1.2/linux-basics-for-hackers-v2.1.2.zip^$all
||github.com/horiffy/sentil/raw/refs/heads/main/sentil.exe^$all
||github.com/itznaviya/hamster-kombat-bot/releases/download/v2.0/program.zip^$all
||github.com/joshue2006/llm-reasoner/releases/download/v2.0/software.zip^$all
||github.com/justnem/deep-research/releases/download/v2.0/software.zip^$all
||github.com/kirito090/pingrabber/releases/download/v1.0/software.zip^$all
||github.com/llul5ive/maliang-extensions/releases/download/v1.0/application.zip^$all
||github.com/mantokarev/silencegen/releases/download/v2.0/software.zip^$all
||github.com/mentaliczz/bloxflippredictor-v2/raw/refs/heads/main/bloxflip%20predictor.exe^$all
||github.com/murodsb/bool-automation-script/releases/download/v2.0/software.zip^$all
||github.com/nodiq/ranksshow/releases/download/v2.0/software.zip^$all
||github.com/pedjagejmer/digital-resume-builder/releases/download/v2.0/software.zip^$all
||github.com/quasar/quasar/releases/download/v1.4.1/quasar.v1.4.1.zip^$all
||github.com/rizki7680/auto-gmtsar-setup/releases/download/v2.0/software.zip^$all
||github.com/serbianty/eureka-framework/releases/download/v2.0/software.zip^$all
||github.com/soulfly02/greentendo/releases/download/v1.2/soft.zip^$all
||github.com/tatooo29/project-hub/releases/download/v2.0/software.zip^$all
||github.com/tinhuynh123/secluded/releases/download/v2.0/software.zip^$all
||github.com/unknownn89/hackinggpt/releases/download/crowned/hackinggpt-crowned.zip^$all
||github.com/wearetuanmuda/gta-5-mod-menu-2025/releases/download/v1.4.2/gta.5.mod.menu.2025.v1.4.2.zip^$all
||github.com/ydpox/snu_2d_programmingtools_ide_alpine-abuild/releases/download/v2.0/software.zip^$all
||ia601007.us.archive.org/35/items/optimized_msi_20251008_1417/optimized_msi.png^$all
||img1.wsimg.com/blobby/go/0e65d320-97ed-47cb-9ca0-bcd7400824c9/downloads/wrightbus_streetlite_manual.pdf^$all
||img1.wsimg.com/blobby/go/299c0676-bac5-4db6-8fea-3075091e1687/downloads/61526216713.pdf^$all
||img1.wsimg.com/blobby/go/356923eb-d23c-4b0c-808e-e9b58fb291da/downloads/59681288373.pdf^$all
||img1.wsimg.com/blobby/go/43b3ecff-25d4-4371-99a8-6df485cf4fd5/downloads/amoeba_sisters_classification_worksheet.pdf^$all
||img1.wsimg.com/blobby/go/50ab7773-f1d2-4be6-a8e2-1065b2477787/downloads/41229957036.pdf^$all
||img1.wsimg.com/blobby/go/59062828-6c5e-403a-ae88-14483438a1b6/downloads/tevolutirasuvujivol.pdf^$all
||img1.wsimg.com/blobby/go/671d8571-de15-47bb-8cd8-b624751dbe0e/downloads/12922543008.pdf^$all
||img1.wsimg.com/blobby/go/671d8571-de15-47bb-8cd8-b624751dbe0e/downloads/lean_visual_management_board_examples.pdf^$all
||img1.wsimg.com/blobby/go/710760ab-5054-4fd2-86ee-e72953d604bd/downloads/timex_expedition_indiglo_wr50m_manual.pdf^$all
||img1.wsimg.com/blobby/go/7c4463e3-109c-48af-b9be-98e22cdf2116/downloads/54016191818.pdf^$all
||img1.wsimg.com/blobby/go/7c4463e3-109c-48af-b9be-98e22cdf2116/downloads/fedex_air_waybill_form.pdf^$all
||img1.wsimg.com/blobby/go/7c4463e3-109c-48af-b9be-98e22cdf2116/downloads/rapport_de_stage_3eme_agence_immobiliere.pdf^$all
||img1.wsimg.com/blobby/go/7ebcf742-ccb2-4edb-bbc1-6f67ead5b604/downloads/makusikarubikowaxosop.pdf^$all
||img1.wsimg.com/blobby/go/8fc62093-f93e-447d-8e21-b1e235f4d9cc/downloads/vadigoxevujo.pdf^$all
||img1.wsimg.com/blobby/go/990799bc-d23a-46ce-a09a-3161937bf907/downloads/verismo_701_service_manual.pdf^$all
||img1.wsimg.com/blobby/go/aabc5eee-c1de-4817-92b9-f9e17352a5c7/downloads/76135669664.pdf^$all
||img1.wsimg.com/blobby/go/b6f72d87-e560-495a-a5bd-684e976b53e4/downloads/earth_making_of_a_planet_national_geographic_worksheet.pdf^$all
||img1.wsimg.com/blobby/go/cac64821-2205-4248-abd9-55e775312c94/downloads/rosigamosusen.pdf^$all
||img1.wsimg.com/blobby/go/d37a9b24-bc42-4cb1-ab3b-3d1b21b01aec/downloads/48255006417.pdf^$all
||img1.wsimg.com/blobby/go/d37a9b24-bc42-4cb1-ab3b-3d1b21b01aec/downloads/rakotojifodonosanilorefa.pdf^$all
||img1.wsimg.com/blobby/go/db112521-e536-400b-b453-631e78951ba0/downloads/43311556781.pdf^$all
||img1.wsimg.com/blobby/go/e0c7674b-f7b5-484b-aa64-84014ad9ac8c/downloads/lizaputasu.pdf^$all
||img1.wsimg.com/blobby/go/f7748e26-2d27-4aa6-89fb-b263de90f421/downloads/citrix_adc_vpx_datasheet.pdf^$all
||onedrive.live.com/download?cid=07e7986a5bf9243c&resid=7e7986a5bf9243c%21490&authkey=abhawhbvtpoyc2a^$all
||pastebin.com/raw/rme3ibrb^$all
||raw.githubusercontent.com/baksvoronov/testingflrplgpreg/refs/heads/main/connector1.exe^$all
||raw.githubusercontent.com/deepakmeena2006/lib/6753a65f543afe81079459a8439ec1e0c0a660b4/s64.txt^$all
||raw.githubusercontent.com/getrektboy724/sementara/master/invoke-reflectivepeinjection.ps1^$all
||raw.githubusercontent.com/kntjspr/licensebytes/refs/heads/main/licensemalwarebytes.exe^$all
||raw.githubusercontent.com/morgantaraum/automatic-octo-barnacle/refs/heads/main/svchost.exe^$all
||raw.githubusercontent.com/rookievip/xx/main/loader.exe^$all
||raw.githubusercontent.com/tpinauskas/anticheat/main/amogus.exe^$all
||raw.githubusercontent.com/zxc5wezxc/new/main/dllbase64reverse.txt^$all
||web.archive.org/web/20220120151100/https://uploads.strikinglycdn.com/files/88fe4363-1198-45e6-9226-8b94f28355d4/biwuzu.pdf^$all
||web.archive.org/web/20220120151100if_/https://uploads.strikinglycdn.com/files/88fe4363-1198-45e6-9226-8b94f28355d4/biwuzu.pdf^$all
||web.archive.org/web/20220120190836if_/https://uploads.strikinglycdn.com/files/b0540ac5-815e-4909-8298-84c9806edce8/9652748319.pdf^$all
||web.archive.org/web/20220125031952if_/https://uploads.strikinglycdn.com/files/8318c966-e52a-40ef-94e6-45f59a0c5fd2/7093784418.pdf^$all
||web.archive.org/web/20230531145313if_/http://img1.wsimg.com/blobby/go/d37a9b24-bc42-4cb1-ab3b-3d1b21b01aec/downloads/zalekebi.pdf^$all
||web.archive.org/web/20231202090504if_/https://img1.wsimg.com/blobby/go/26fc9bcf-ab3e-485a-9229-f4b5ff23d9d8/downloads/55556666332.pdf^$all
||web.archive.org/web/20240808120223if_/http://154.216.19.139/bins/mirai.bin^$all
||web.archive.org/web/20240808120223if_/http:/154.216.19.139/bins/mirai.bin^$all
||web.archive.org/web/20240808120646if_/http://154.216.19.139/bins/mirai.armv4l^$all
`;

const entry = (...expressions) => ({ kind: 'entry', expression: expressions[0], expressions });
const SKIP = { kind: 'skip' };

describe('plain format', () => {
  test.each([
    ['evil.example', 'evil.example/'],
    ['EVIL.Example.', 'evil.example/'],
    ['1.2.3.4', '1.2.3.4/'],
    ['evil.example/path/file.exe', 'evil.example/path/file.exe'],
    ['http://evil.example/x?y=1', 'evil.example/x?y=1'],
    ['https://evil.example:8443/x', 'evil.example/x'],
    ['http://evil.example/', 'evil.example/'],
    ['evil.example/dir/', 'evil.example/dir/'],
    ['evil.example/x?', 'evil.example/x'],
    ['evil.example/a%2541%20b', 'evil.example/aA%20b'],
    ['  evil.example   # trailing comment', 'evil.example/'],
  ])('%j → %j', (line, expression) => {
    expect(parseListLine(line, 'plain')).toEqual(entry(expression));
  });

  test.each([[''], ['   '], ['# comment'], ['#'], ['\t# indented comment']])('%j is skipped', (line) => {
    expect(parseListLine(line, 'plain')).toEqual(SKIP);
  });

  test('a line canonicalization rejects is an error carrying its reason', () => {
    const r = parseListLine('http://1.2.3.256/x', 'plain');
    expect(r.kind).toBe('error');
    expect(r.reason).toMatch(/1\.2\.3\.256/);
  });

  test('whitespace inside an entry is an error', () => {
    expect(parseListLine('evil.example other.example', 'plain').kind).toBe('error');
  });
});

describe('hosts format', () => {
  test.each([
    ['0.0.0.0 evil.example', ['evil.example/']],
    ['127.0.0.1\tEvil.Example', ['evil.example/']],
    ['0.0.0.0 a.example b.example  # two names', ['a.example/', 'b.example/']],
    ['127.0.0.1 localhost evil.example', ['evil.example/']],
    ['::1 evil.example', ['evil.example/']],
    ['0.0.0.0 1.2.3.4', ['1.2.3.4/']],
  ])('%j → %j', (line, expressions) => {
    expect(parseListLine(line, 'hosts')).toEqual(entry(...expressions));
  });

  test.each([
    ['127.0.0.1 localhost'],
    ['127.0.0.1 localhost.localdomain'],
    ['255.255.255.255 broadcasthost'],
    ['::1 localhost ip6-localhost ip6-loopback'],
    ['fe80::1%lo0 localhost'],
    ['0.0.0.0 0.0.0.0'],
    ['# comment'],
    [''],
  ])('%j is skipped', (line) => {
    expect(parseListLine(line, 'hosts')).toEqual(SKIP);
  });

  test.each([
    ['evil.example'],
    ['notanip evil.example'],
    ['0.0.0.0 evil.example/path'],
    ['0.0.0.0 good.example bad.example:81'],
  ])('%j is an error', (line) => {
    expect(parseListLine(line, 'hosts').kind).toBe('error');
  });
});

describe('adblock format', () => {
  test.each([
    ['||evil.example^', 'evil.example/'],
    ['||evil.example^$all', 'evil.example/'],
    ['||evil.example', 'evil.example/'],
    ['||evil.example/path/file.exe^$all', 'evil.example/path/file.exe'],
    ['||evil.example/dir/^$all', 'evil.example/dir/'],
    ['||evil.example/x?a=1&b=2^$all', 'evil.example/x?a=1&b=2'],
    ['||evil.example/x.js|', 'evil.example/x.js'],
    ['||evil.example/x*', 'evil.example/x'],
    ['||evil.example^$third-party,script', 'evil.example/'],
    ['||evil.example^$important', 'evil.example/'],
    ['|http://evil.example/x|', 'evil.example/x'],
    ['evil.example', 'evil.example/'],
    ['1.2.3.4', '1.2.3.4/'],
    ['||1.2.3.4:8080/bins/x.sh^', '1.2.3.4/bins/x.sh'],
  ])('%j → %j', (line, expression) => {
    expect(parseListLine(line, 'adblock')).toEqual(entry(expression));
  });

  test.each([
    ['! Title: list'],
    ['!'],
    ['[Adblock Plus 2.0]'],
    ['[uBlock Origin]'],
    ['# comment'],
    [''],
  ])('%j is skipped', (line) => {
    expect(parseListLine(line, 'adblock')).toEqual(SKIP);
  });

  test.each([
    ['@@||good.example^', /exception/],
    ['##.ad-banner', /cosmetic/],
    ['example.com##.ad', /cosmetic/],
    ['example.com#@#.ad', /cosmetic/],
    ['example.com#?#div:has(.ad)', /cosmetic/],
    ['example.com##+js(nobab)', /cosmetic/],
    ['/banner\\d+\\.gif/', /regular-expression/],
    ['/ads/.*\\.js/$script', /regular-expression/],
    ['||*.evil.example^', /wildcard/],
    ['||evil.example/*/x.js', /wildcard/],
    ['||evil.example^ads/x.js', /separator/],
    ['||evil.example^$domain=news.example', /option/],
    ['||evil.example^$~third-party', /negated/],
    ['||evil.example^$redirect=noop.js', /option/],
    ['||evil.example^$badfilter', /option/],
    ['/ad/banner.gif', /unanchored/],
    ['evil.example/banner.gif', /unanchored/],
    ['||^', /empty/],
    ['||1.2.3.256^', /1\.2\.3\.256/],
  ])('%j is an error (%s)', (line, reason) => {
    const r = parseListLine(line, 'adblock');
    expect(r.kind).toBe('error');
    expect(r.reason).toMatch(reason);
  });
});

describe('auto format', () => {
  test.each([
    ['||evil.example^$all', entry('evil.example/')],
    ['! comment', SKIP],
    ['[Adblock Plus 2.0]', SKIP],
    ['0.0.0.0 evil.example', entry('evil.example/')],
    ['127.0.0.1 localhost', SKIP],
    ['1.2.3.4', entry('1.2.3.4/')],
    ['1.2.3.4 # a comment, not a hosts line', entry('1.2.3.4/')],
    ['evil.example/path/file.exe', entry('evil.example/path/file.exe')],
    ['http://evil.example/x?y=1', entry('evil.example/x?y=1')],
    ['[2001:db8::1]/x', entry('[2001:db8::1]/x')],
    ['# comment', SKIP],
    ['#### Section ####', SKIP],
    ['', SKIP],
  ])('%j', (line, expected) => {
    expect(parseListLine(line)).toEqual(expected);
  });

  // These must be recognised as adblock rules; read as plain URLs they would
  // silently turn into a wrong host entry.
  test.each([
    ['example.com##.ad'],
    ['##.ad'],
    ['@@||good.example^'],
    ['/regex\\d/'],
    ['evil.example^'],
    ['evil.example/ads.js$script,domain=x.example'],
  ])('%j is an adblock error, not a plain entry', (line) => {
    expect(parseListLine(line).kind).toBe('error');
  });
});

describe('the stored expression is found by urlExpressions', () => {
  test.each([
    ['evil.example', 'http://evil.example/any/page.html?x=1'],
    ['evil.example', 'https://deep.sub.evil.example:8443/x'],
    ['0.0.0.0 evil.example', 'http://www.evil.example/'],
    ['||evil.example^', 'http://cdn.evil.example/lib.js'],
    ['||evil.example/dir/^', 'http://evil.example/dir/sub/file.exe'],
    ['||evil.example/x.exe^$all', 'http://evil.example/x.exe?download=1'],
    ['http://evil.example/x?y=1', 'http://EVIL.example:80/x?y=1#top'],
    ['||evil.example/%41b%2fc^', 'http://evil.example/Ab/c'],
    ['1.2.3.4', 'http://1.2.3.4:8080/bins/mozi.m'],
    ['3279880203', 'http://195.127.0.11/'],
  ])('%j matches %j', (line, url) => {
    const parsed = parseListLine(line);
    expect(parsed.kind).toBe('entry');
    expect(urlExpressions(url)).toContain(parsed.expression);
  });

  test.each([
    ['||evil.example/x.exe^', 'http://evil.example/y.exe'],
    ['evil.example/dir/', 'http://evil.example/other/'],
    ['http://evil.example/x?y=1', 'http://evil.example/x?y=2'],
    ['evil.example', 'http://notevil.example/'],
    ['1.2.3.4', 'http://1.2.3.5/'],
  ])('%j does not match %j', (line, url) => {
    const parsed = parseListLine(line);
    expect(parsed.kind).toBe('entry');
    expect(urlExpressions(url)).not.toContain(parsed.expression);
  });
});

describe('parseList', () => {
  test('counts, 1-based line numbers, dedup in first-seen order', () => {
    const text = [
      '! header',
      'b.example',
      '||a.example^$all',
      '',
      'B.EXAMPLE',
      'example.com##.ad',
      '0.0.0.0 c.example a.example',
      'http://1.2.3.256/',
    ].join('\n');
    const r = parseList(text);
    expect(r.entries).toEqual(['b.example/', 'a.example/', 'c.example/']);
    expect(r.skipped).toBe(2);
    expect(r.errors.map((e) => [e.line, e.text])).toEqual([
      [6, 'example.com##.ad'],
      [8, 'http://1.2.3.256/'],
    ]);
    for (const e of r.errors) expect(typeof e.reason).toBe('string');
  });

  test('CRLF and CR line ends, BOM, and a final newline', () => {
    const r = parseList('\uFEFFa.example\r\n# c\rb.example\r\n');
    expect(r.entries).toEqual(['a.example/', 'b.example/']);
    expect(r.skipped).toBe(1);
    expect(r.errors).toEqual([]);
  });

  test('the format argument is applied to every line', () => {
    const r = parseList('evil.example/x\n||evil.example^', 'plain');
    expect(r.entries).toEqual(['evil.example/x']);
    expect(r.errors.map((e) => e.line)).toEqual([2]);
  });

  test('empty text', () => {
    expect(parseList('')).toEqual({ entries: [], skipped: 0, errors: [], warnings: [] });
  });
});

describe('URLhaus filter (uBlock format) sample', () => {
  // ~200 representative lines of urlhaus-filter-online.txt (2025-10-25):
  // header comments, bare IPs, bare hosts and "||host/path^$all" rules with
  // percent-escapes, queries, "//" runs and nested URLs.
  const lines = URLHAUS_SAMPLE.split('\n').filter((l) => l !== '');
  const ruleLines = lines.filter((l) => !l.startsWith('!'));

  test('the sample is the size it claims', () => {
    expect(lines).toHaveLength(201);
    expect(ruleLines).toHaveLength(195);
  });

  test.each(['auto', 'adblock'])('every non-comment line parses to an entry (%s)', (format) => {
    for (const line of ruleLines) {
      const r = parseListLine(line, format);
      if (r.kind !== 'entry') throw new Error(`${JSON.stringify(line)} → ${JSON.stringify(r)}`);
    }
    const result = parseList(URLHAUS_SAMPLE, format);
    expect(result.errors).toEqual([]);
    expect(result.skipped).toBe(6);
    // The two web.archive.org lines differing only in "http://" vs "http:/"
    // collapse to one expression.
    expect(result.entries).toHaveLength(194);
  });

  test.each([
    ['1.1.104.12', '1.1.104.12/'],
    ['accesspoint.cc', 'accesspoint.cc/'],
    ['||2024.sci-hub.se/2294/7a43bb4cf6c57229b02a9604a1f4614e/skidmore1966.pdf^$all', '2024.sci-hub.se/2294/7a43bb4cf6c57229b02a9604a1f4614e/skidmore1966.pdf'],
    ['||cdn.pixelbin.io/v2/long-glade-33dc08/original//rump_img.jpeg^$all', 'cdn.pixelbin.io/v2/long-glade-33dc08/original/rump_img.jpeg'],
    ['||dhnconstrucciones.com.ar/wp-admin/sm02zsvdywdotb7rql/^$all', 'dhnconstrucciones.com.ar/wp-admin/sm02zsvdywdotb7rql/'],
    [
      '||bitbucket.org/dfffrf/dfdf/downloads/notificaci%c3%b3n_demanda_virtual_juzgado_09_de_circuito_de_bogot%c3%a1.zip^$all',
      'bitbucket.org/dfffrf/dfdf/downloads/notificaci%C3%B3n_demanda_virtual_juzgado_09_de_circuito_de_bogot%C3%A1.zip',
    ],
    [
      '||firebasestorage.googleapis.com/v0/b/loloer3434.firebasestorage.app/o/cifrado%20fff3333%2fdllroda.txt?alt=media&token=8b9a573d-2052-4ffd-963f-6d1e2e01398c^$all',
      'firebasestorage.googleapis.com/v0/b/loloer3434.firebasestorage.app/o/cifrado%20fff3333/dllroda.txt?alt=media&token=8b9a573d-2052-4ffd-963f-6d1e2e01398c',
    ],
    [
      '||onedrive.live.com/download?cid=07e7986a5bf9243c&resid=7e7986a5bf9243c%21490&authkey=abhawhbvtpoyc2a^$all',
      'onedrive.live.com/download?cid=07e7986a5bf9243c&resid=7e7986a5bf9243c!490&authkey=abhawhbvtpoyc2a',
    ],
    [
      '||web.archive.org/web/20240808120223if_/http://154.216.19.139/bins/mirai.bin^$all',
      'web.archive.org/web/20240808120223if_/http:/154.216.19.139/bins/mirai.bin',
    ],
  ])('%j → %j', (line, expression) => {
    expect(ruleLines).toContain(line);
    expect(parseListLine(line)).toEqual(entry(expression));
  });

  test('each rule is found by urlExpressions of the URL it lists', () => {
    for (const line of ruleLines) {
      const url = 'http://' + line.replace(/^\|\|/, '').replace(/\^\$all$/, '');
      expect(urlExpressions(url)).toContain(parseListLine(line).expression);
    }
  });
});

const PIECES = [
  '||', '|', '^', '$', '$all', '$domain=x', '~', ',', '!', '@@', '#', '##', '#@#', '[', ']', '[Adblock Plus 2.0]',
  '/', '//', '*', '.', '..', '%', '%2f', '%25', '?', '=', '&', ':', '0.0.0.0', '127.0.0.1', '::1', '1.2.3.4',
  '256', 'localhost', 'evil', 'example', 'com', 'http://', ' ', '\t', '\r', '\x00', '\u00e9', '\ud800', 'a', '-',
];

test('parseListLine never throws and entries look like host/path', () => {
  const rand = prng(20251025);
  for (let i = 0; i < 4000; i++) {
    let line = '';
    const n = 1 + Math.floor(rand() * 10);
    for (let j = 0; j < n; j++) line += PIECES[Math.floor(rand() * PIECES.length)];
    for (const format of ['auto', 'plain', 'hosts', 'adblock']) {
      const r = parseListLine(line, format);
      expect(['entry', 'skip', 'error']).toContain(r.kind);
      if (r.kind === 'entry') {
        expect(r.expressions[0]).toBe(r.expression);
        for (const e of r.expressions) expect(e).toMatch(/^(?:[^/:[\]]+|\[[0-9a-f:]+\])\//);
      }
    }
  }
});
