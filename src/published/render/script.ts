/**
 * The only JavaScript of a published site, all progressive: the pages are complete without it.
 * - {@link HEAD_SCRIPT}, inline in `<head>` so the theme is right before the first paint: marks the
 *   page as scripted and applies the reader's saved theme (when the site lets readers choose) or the
 *   system's.
 * - {@link SITE_SCRIPT}, deferred: the theme toggle, the mobile menu, tabs (from panels that read
 *   one after the other without it), and live results under the
 *   search box (the box itself is a plain form that opens the results page), and the page feedback
 *   form sent in the background, then an optional comment (it posts to `~feedback` without it). Results are built with
 *   DOM APIs and `textContent`, never from HTML strings.
 */
export const HEAD_SCRIPT = `(function(){var d=document.documentElement;d.classList.add('js');try{var t=localStorage.getItem('bindery-theme');if(d.hasAttribute('data-toggle')&&(t==='light'||t==='dark'))d.setAttribute('data-theme',t)}catch(e){}if(!d.hasAttribute('data-theme'))d.setAttribute('data-theme',matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light')})();`;

export const SITE_SCRIPT = `(function(){
var d=document.documentElement;
var toggle=document.querySelector('.theme-toggle');
if(toggle){toggle.addEventListener('click',function(){var next=d.getAttribute('data-theme')==='dark'?'light':'dark';d.setAttribute('data-theme',next);toggle.setAttribute('aria-pressed',String(next==='dark'));try{localStorage.setItem('bindery-theme',next)}catch(e){}});toggle.setAttribute('aria-pressed',String(d.getAttribute('data-theme')==='dark'))}
var menu=document.querySelector('.menu-button');
if(menu){menu.addEventListener('click',function(){var open=d.classList.toggle('menu-open');menu.setAttribute('aria-expanded',String(open))})}
[].forEach.call(document.querySelectorAll('.content-tabs'),function(box,n){var panels=[].slice.call(box.children);var list=document.createElement('div');list.className='tab-list';list.setAttribute('role','tablist');var tabs=panels.map(function(panel,i){var b=document.createElement('button');b.type='button';b.id='tab-'+n+'-'+i;b.setAttribute('role','tab');b.textContent=panel.getAttribute('data-title')||String(i+1);panel.id='tabpanel-'+n+'-'+i;panel.setAttribute('role','tabpanel');panel.setAttribute('aria-labelledby',b.id);panel.setAttribute('tabindex','0');b.setAttribute('aria-controls',panel.id);list.appendChild(b);return b});
function select(i,focus){tabs.forEach(function(b,j){b.setAttribute('aria-selected',String(i===j));b.tabIndex=i===j?0:-1;panels[j].hidden=i!==j});if(focus)tabs[i].focus()}
tabs.forEach(function(b,i){b.addEventListener('click',function(){select(i,false)});b.addEventListener('keydown',function(e){var k=e.key==='ArrowRight'?1:e.key==='ArrowLeft'?-1:0;if(k){e.preventDefault();select((i+k+tabs.length)%tabs.length,true)}})});
box.insertBefore(list,box.firstChild);box.classList.add('tabs-ready');select(0,false)});
var fb=document.querySelector('form.feedback'),thanks=document.getElementById('feedback-thanks');
if(fb&&thanks){var rating=null;
function say(t){thanks.textContent=t;thanks.classList.add('shown')}
function send(fields,done){var body=new URLSearchParams(new FormData(fb));Object.keys(fields).forEach(function(k){body.set(k,fields[k])});fetch(fb.action,{method:'POST',headers:{accept:'application/json','content-type':'application/x-www-form-urlencoded'},body:body.toString(),credentials:'same-origin'}).then(function(r){if(!r.ok)throw new Error(String(r.status));done()}).catch(function(){say('Sorry, your feedback could not be sent.')})}
function ask(){[].slice.call(fb.querySelectorAll('button')).forEach(function(b){b.remove()});var q=fb.querySelector('#feedback-question');if(q)q.textContent='Thank you! Anything to add?';var label=document.createElement('label');label.htmlFor='feedback-comment';label.textContent='Your comment (optional)';var area=document.createElement('textarea');area.id='feedback-comment';area.name='comment';area.maxLength=512;var go=document.createElement('button');go.type='submit';go.textContent='Send comment';fb.appendChild(label);fb.appendChild(area);fb.appendChild(go);area.focus()}
fb.addEventListener('submit',function(e){e.preventDefault();if(rating===null){var b=e.submitter;if(!b||!b.value)return;rating=b.value;send({rating:rating},function(){say('Thank you for your feedback!');ask()});return}var area=fb.querySelector('textarea');var comment=area?area.value.trim():'';if(!comment){fb.remove();return}send({rating:rating,comment:comment},function(){fb.remove();say('Thank you, your comment was sent.')})})}
var form=document.querySelector('form.search');
if(!form)return;
var input=form.querySelector('input[name=q]');var endpoint=form.getAttribute('data-endpoint');
var list=document.createElement('ul');list.className='search-results';list.id='search-results';list.hidden=true;list.setAttribute('aria-label','Search results');form.appendChild(list);
input.setAttribute('aria-controls','search-results');input.setAttribute('autocomplete','off');
var timer=null,seq=0;
function close(){list.hidden=true}
function item(href,title,detail){var li=document.createElement('li');var a=document.createElement('a');a.href=href;a.textContent=title;if(detail){var s=document.createElement('small');s.textContent=detail;a.appendChild(s)}li.appendChild(a);return li}
function show(q,data){list.textContent='';(data.results||[]).forEach(function(r){list.appendChild(item(r.href,r.title,r.snippet||r.path||''))});if(data.ask)list.appendChild(item(data.ask,'Ask: '+q,'Answer from these docs'));if(!list.firstChild){var li=document.createElement('li');li.className='empty';li.textContent='No results for '+q;list.appendChild(li)}list.hidden=false}
input.addEventListener('input',function(){clearTimeout(timer);var q=input.value.trim();if(q.length<2){close();return}timer=setTimeout(function(){var mine=++seq;fetch(endpoint+'?q='+encodeURIComponent(q),{headers:{accept:'application/json'},credentials:'same-origin'}).then(function(r){return r.ok?r.json():{results:[]}}).then(function(data){if(mine===seq)show(q,data)}).catch(function(){})},150)});
form.addEventListener('keydown',function(e){if(e.key==='Escape'){close();input.focus()}else if(e.key==='ArrowDown'||e.key==='ArrowUp'){var links=[].slice.call(list.querySelectorAll('a'));if(!links.length||list.hidden)return;e.preventDefault();var i=links.indexOf(document.activeElement);i=e.key==='ArrowDown'?Math.min(i+1,links.length-1):i-1;if(i<0)input.focus();else links[i].focus()}});
document.addEventListener('click',function(e){if(!form.contains(e.target))close()});
document.addEventListener('keydown',function(e){if(e.key==='/'&&document.activeElement===document.body){e.preventDefault();input.focus()}});
})();`;
