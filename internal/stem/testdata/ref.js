const fs=require('fs');
const words=fs.readFileSync('words.txt','utf8').trim().split('\n');
const p2=require('porter2'); const wink=require('wink-porter2-stemmer');
const sb=require('snowball-stemmers').newStemmer('english');
let out=[];
for (const w of words){ out.push([w, p2.stem?p2.stem(w):p2(w), wink(w), sb.stem(w)].join('\t')); }
fs.writeFileSync('ref.tsv', out.join('\n')+'\n');
